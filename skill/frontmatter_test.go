package skill

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	ucs "github.com/unified-cognitive-substrate/ucs"
)

// The frontmatter of SKILL.md is checked here, against the rules of the
// Agent Skills reference validator (npm skills-ref, which `make
// skill-validate` runs too): only the specification's top-level fields, a
// lowercase name that matches the folder, a description of at most 1024
// characters. ucs itself never parses YAML: Check compares bytes.

// Limits and fields of the Agent Skills specification.
const (
	maxNameLength          = 64
	maxDescriptionLength   = 1024
	maxCompatibilityLength = 500
)

// allowedFields are the only top-level frontmatter fields the
// specification allows; runtime-specific settings go under metadata.
var allowedFields = []string{"allowed-tools", "compatibility", "description", "license", "metadata", "name"}

// parseFrontmatter splits SKILL.md into its frontmatter and body the way
// the reference validator does: the file starts with "---", and the
// frontmatter runs to the next "---".
func parseFrontmatter(content []byte) (map[string]any, string, error) {
	text := string(content)
	if !strings.HasPrefix(text, "---") {
		return nil, "", fmt.Errorf("SKILL.md must start with YAML frontmatter (---)")
	}
	parts := strings.SplitN(text, "---", 3)
	if len(parts) < 3 {
		return nil, "", fmt.Errorf("SKILL.md frontmatter is not closed with ---")
	}
	var fm map[string]any
	if err := yaml.Unmarshal([]byte(parts[1]), &fm); err != nil {
		return nil, "", fmt.Errorf("invalid YAML in SKILL.md frontmatter: %v", err)
	}
	if fm == nil {
		return nil, "", fmt.Errorf("SKILL.md frontmatter is not a mapping")
	}
	return fm, strings.TrimSpace(parts[2]), nil
}

// validate returns every way the frontmatter breaks the specification,
// for a skill in folder dir ("" skips the folder-name check).
func validate(fm map[string]any, dir string) []string {
	var problems, extra []string
	for k := range fm {
		if !slices.Contains(allowedFields, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		problems = append(problems, fmt.Sprintf("unexpected fields in frontmatter: %s; only %s are allowed",
			strings.Join(extra, ", "), strings.Join(allowedFields, ", ")))
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
	} else if n := utf16Len(s); n > maxDescriptionLength {
		problems = append(problems, fmt.Sprintf("description exceeds %d characters (%d)", maxDescriptionLength, n))
	}
	if c, ok := fm["compatibility"]; ok {
		if s, isStr := c.(string); !isStr {
			problems = append(problems, "compatibility must be a string")
		} else if n := utf16Len(s); n > maxCompatibilityLength {
			problems = append(problems, fmt.Sprintf("compatibility exceeds %d characters (%d)", maxCompatibilityLength, n))
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
	if n := utf16Len(name); n > maxNameLength {
		problems = append(problems, fmt.Sprintf("name %q exceeds %d characters (%d)", name, maxNameLength, n))
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

// TestRepositorySkillFrontmatter checks the repository's SKILL.md with
// the reference validator's rules, in a folder named like the skill, and
// what OpenClaw reads of its metadata.
func TestRepositorySkillFrontmatter(t *testing.T) {
	fm, body, err := parseFrontmatter(ucs.SkillMD)
	require.NoError(t, err)
	assert.Empty(t, validate(fm, "/skills/ucs"))
	assert.Equal(t, "ucs", fm["name"])
	assert.NotEmpty(t, body)
	desc := fm["description"].(string)
	assert.LessOrEqual(t, len(desc), maxDescriptionLength)
	assert.NotContains(t, desc, "<", "no angle brackets: some runtimes reject them")
	meta := fm["metadata"].(map[string]any)
	assert.NotEmpty(t, meta["version"])
	oc := meta["openclaw"].(map[string]any)
	assert.Equal(t, []any{"ucs"}, oc["requires"].(map[string]any)["bins"])
	install := oc["install"].([]any)[0].(map[string]any)
	assert.Equal(t, "go", install["kind"])
	assert.Equal(t, "github.com/unified-cognitive-substrate/ucs/cmd/ucs@latest", install["module"])
	assert.Contains(t, string(ucs.SkillMD), "{baseDir}/bin/ucs", "commands work from the installed folder")

	// Identify, which Check and Uninstall use instead of a YAML parser,
	// reads the same name and version.
	name, version := Identify(ucs.SkillMD)
	assert.Equal(t, fm["name"], name)
	assert.Equal(t, meta["version"], version)
}

// TestIdentify: the line scan agrees with yaml.v3 on the forms a SKILL.md
// takes, and finds nothing where there is nothing.
func TestIdentify(t *testing.T) {
	for _, src := range []string{
		"---\nname: ucs\ndescription: d\nmetadata:\n  version: \"0.1.0\"\n---\nbody\n",
		"---\r\nname: 'other'\r\nmetadata:\r\n  openclaw:\r\n    version: 9\r\n  version: 1.2.3 # a comment\r\n---\r\n",
		"---\nmetadata:\n    author: x\n    version: '2'\nname: \"q\"\nversion: 7\n---\n",
		"---\ndescription: d\n# name: commented\n---\n",
	} {
		fm, _, err := parseFrontmatter([]byte(src))
		require.NoError(t, err, src)
		name, version := Identify([]byte(src))
		want, _ := fm["name"].(string)
		assert.Equal(t, want, name, src)
		var wantVersion string
		if meta, ok := fm["metadata"].(map[string]any); ok && meta["version"] != nil {
			wantVersion = fmt.Sprint(meta["version"])
		}
		assert.Equal(t, wantVersion, version, src)
	}
	for _, src := range []string{"", "no frontmatter", "name: ucs\n"} {
		name, version := Identify([]byte(src))
		assert.Empty(t, name+version, src)
	}
}

// TestValidate follows the reference validator (npm skills-ref) rule by rule.
func TestValidate(t *testing.T) {
	cases := []struct {
		name, yaml, dir string
		problems        []string // substrings, one per expected problem
	}{
		{"valid", "name: ucs\ndescription: d", "/x/ucs", nil},
		{"all allowed fields", "name: ucs\ndescription: d\nlicense: MIT\ncompatibility: c\nallowed-tools: Bash\nmetadata: {a: b}", "/x/ucs", nil},
		{"unexpected field", "name: ucs\ndescription: d\nversion: 1", "/x/ucs", []string{"unexpected fields in frontmatter: version"}},
		{"missing name", "description: d", "", []string{"missing required field: name"}},
		{"missing description", "name: ucs", "", []string{"missing required field: description"}},
		{"empty description", "name: ucs\ndescription: ' '", "", []string{"description must be a non-empty string"}},
		{"uppercase", "name: UCS\ndescription: d", "", []string{"must be lowercase"}},
		{"leading hyphen", "name: -ucs\ndescription: d", "", []string{"cannot start or end with a hyphen"}},
		{"double hyphen", "name: u--cs\ndescription: d", "", []string{"consecutive hyphens"}},
		{"underscore", "name: u_cs\ndescription: d", "", []string{"only letters, digits and hyphens"}},
		{"folder mismatch", "name: ucs\ndescription: d", "/x/other", []string{"must match the skill name"}},
		{"long name", "name: " + strings.Repeat("a", 65) + "\ndescription: d", "", []string{"exceeds 64"}},
		{"long description", "name: ucs\ndescription: " + strings.Repeat("d", 1025), "", []string{"exceeds 1024"}},
		{"long compatibility", "name: ucs\ndescription: d\ncompatibility: " + strings.Repeat("c", 501), "", []string{"exceeds 500"}},
		{"metadata not a map", "name: ucs\ndescription: d\nmetadata: text", "", []string{"metadata must be a mapping"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fm, _, err := parseFrontmatter([]byte("---\n" + c.yaml + "\n---\nbody\n"))
			require.NoError(t, err)
			got := validate(fm, c.dir)
			require.Len(t, got, len(c.problems), "%q", got)
			for i, p := range c.problems {
				assert.Contains(t, got[i], p)
			}
		})
	}
	for _, bad := range []string{"no frontmatter", "---\nname: ucs\n", "---\n[a, b\n---\n"} {
		_, _, err := parseFrontmatter([]byte(bad))
		assert.Error(t, err, bad)
	}
}
