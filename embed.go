// Package ucs holds what the ucs binary embeds from the repository's root:
// SKILL.md, the agent-facing skill file that `ucs skill install` writes out
// byte for byte.
package ucs

import _ "embed"

// SkillMD is the repository's SKILL.md.
//
//go:embed SKILL.md
var SkillMD []byte
