// Package skill installs, removes and checks the ucs Agent Skill: a folder
// holding SKILL.md and bin/ucs that OpenClaw or any Agent Skills runtime
// loads from a skills directory.
//
// Validate applies the rules of the Agent Skills reference validator
// (skills-ref): only the specification's top-level fields, a lowercase name
// that matches the folder, a description of at most 1024 characters.
package skill

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Limits and fields of the Agent Skills specification.
const (
	MaxNameLength          = 64
	MaxDescriptionLength   = 1024
	MaxCompatibilityLength = 500
)

// AllowedFields are the only top-level frontmatter fields the specification
// allows; runtime-specific settings go under metadata.
var AllowedFields = []string{"allowed-tools", "compatibility", "description", "license", "metadata", "name"}

// Frontmatter is a SKILL.md's parsed YAML frontmatter.
type Frontmatter map[string]any

// ParseFrontmatter splits SKILL.md into its frontmatter and body the way
// the reference validator does: the file starts with "---", and the
// frontmatter runs to the next "---". The frontmatter is parsed by a strict
// parser for the part of YAML frontmatter uses (see yaml.go); anything
// beyond it is an error naming the line.
func ParseFrontmatter(content []byte) (Frontmatter, string, error) {
	text := string(content)
	if !strings.HasPrefix(text, "---") {
		return nil, "", fmt.Errorf("SKILL.md must start with YAML frontmatter (---)")
	}
	parts := strings.SplitN(text, "---", 3)
	if len(parts) < 3 {
		return nil, "", fmt.Errorf("SKILL.md frontmatter is not closed with ---")
	}
	// parts[1] starts on the first line, after its "---".
	raw, err := parseYAML(parts[1], 1)
	if err != nil {
		return nil, "", fmt.Errorf("invalid or unsupported YAML in SKILL.md frontmatter, %v", err)
	}
	return Frontmatter(raw), strings.TrimSpace(parts[2]), nil
}

// Validate returns every way the frontmatter breaks the specification,
// for a skill in folder dir ("" skips the folder-name check).
func Validate(fm Frontmatter, dir string) []string {
	var problems []string
	var extra []string
	for k := range fm {
		if !slices.Contains(AllowedFields, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		problems = append(problems, fmt.Sprintf("unexpected fields in frontmatter: %s; only %s are allowed",
			strings.Join(extra, ", "), strings.Join(AllowedFields, ", ")))
	}
	if name, ok := fm["name"]; !ok {
		problems = append(problems, "missing required field: name")
	} else {
		problems = append(problems, validateName(fmt.Sprint(name), dir)...)
	}
	if d, ok := fm["description"]; !ok {
		problems = append(problems, "missing required field: description")
	} else if s, isStr := d.(string); !isStr || strings.TrimSpace(s) == "" {
		problems = append(problems, "description must be a non-empty string")
	} else if n := utf16Len(s); n > MaxDescriptionLength {
		problems = append(problems, fmt.Sprintf("description exceeds %d characters (%d)", MaxDescriptionLength, n))
	}
	if c, ok := fm["compatibility"]; ok {
		if s, isStr := c.(string); !isStr {
			problems = append(problems, "compatibility must be a string")
		} else if n := utf16Len(s); n > MaxCompatibilityLength {
			problems = append(problems, fmt.Sprintf("compatibility exceeds %d characters (%d)", MaxCompatibilityLength, n))
		}
	}
	if m, ok := fm["metadata"]; ok {
		if _, isMap := m.(map[string]any); !isMap {
			problems = append(problems, "metadata must be a mapping")
		}
	}
	return problems
}

func validateName(name, dir string) []string {
	var problems []string
	name = strings.TrimSpace(name)
	if name == "" {
		return []string{"name must be a non-empty string"}
	}
	if n := utf16Len(name); n > MaxNameLength {
		problems = append(problems, fmt.Sprintf("name %q exceeds %d characters (%d)", name, MaxNameLength, n))
	}
	if name != strings.ToLower(name) {
		problems = append(problems, fmt.Sprintf("name %q must be lowercase", name))
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		problems = append(problems, "name cannot start or end with a hyphen")
	}
	if strings.Contains(name, "--") {
		problems = append(problems, "name cannot contain consecutive hyphens")
	}
	for _, r := range name {
		if !nameRune(r) {
			problems = append(problems, fmt.Sprintf("name %q may hold only letters, digits and hyphens", name))
			break
		}
	}
	if dir != "" && filepath.Base(dir) != name {
		problems = append(problems, fmt.Sprintf("folder name %q must match the skill name %q", filepath.Base(dir), name))
	}
	return problems
}

// nameRune accepts the characters the reference validator accepts in a
// name: ASCII letters and digits, Latin-1 and Latin Extended letters,
// Cyrillic, CJK ideographs, combining marks, and the hyphen.
func nameRune(r rune) bool {
	switch {
	case r == '-', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	case r >= 0x00c0 && r <= 0x024f, r >= 0x0300 && r <= 0x036f, r >= 0x0400 && r <= 0x04ff,
		r >= 0x3400 && r <= 0x4dbf, r >= 0x4e00 && r <= 0x9fff:
		return true
	}
	return false
}

// utf16Len counts as JavaScript's String.length does, which the reference
// validator's limits are in.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
