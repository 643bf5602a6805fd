// Package ucs holds what the ucs binary embeds from the repository's root:
// the agent-facing skill that `ucs skill install` writes out byte for byte
// and `ucs skill check` compares with what is installed.
package ucs

import _ "embed"

// SkillMD is the repository's SKILL.md: when to call what, with one
// example per command.
//
//go:embed SKILL.md
var SkillMD []byte

// CommandsMD is the skill's references/commands.md: the full command
// reference, generated from the operation registry (internal/cli's
// CommandReference, checked by its tests).
//
//go:embed references/commands.md
var CommandsMD []byte
