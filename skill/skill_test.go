package skill

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	ucs "github.com/unified-cognitive-substrate/ucs"
)

// TestRepositorySkillIsValid checks the repository's SKILL.md with the
// reference validator's rules, in a folder named like the skill.
func TestRepositorySkillIsValid(t *testing.T) {
	fm, body, err := ParseFrontmatter(ucs.SkillMD)
	require.NoError(t, err)
	assert.Empty(t, Validate(fm, "/skills/ucs"))
	assert.Equal(t, "ucs", fm["name"])
	assert.NotEmpty(t, body)
	desc := fm["description"].(string)
	assert.LessOrEqual(t, len(desc), MaxDescriptionLength)
	assert.NotContains(t, desc, "<", "no angle brackets: some runtimes reject them")
	meta := fm["metadata"].(map[string]any)
	assert.NotEmpty(t, meta["version"])
	oc := meta["openclaw"].(map[string]any)
	assert.Equal(t, []any{"ucs"}, oc["requires"].(map[string]any)["bins"])
	install := oc["install"].([]any)[0].(map[string]any)
	assert.Equal(t, "go", install["kind"])
	assert.Equal(t, "github.com/unified-cognitive-substrate/ucs/cmd/ucs@latest", install["module"])
	assert.Contains(t, string(ucs.SkillMD), "{baseDir}/bin/ucs", "commands work from the installed folder")
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
			fm, _, err := ParseFrontmatter([]byte("---\n" + c.yaml + "\n---\nbody\n"))
			require.NoError(t, err)
			got := Validate(fm, c.dir)
			require.Len(t, got, len(c.problems), "%q", got)
			for i, p := range c.problems {
				assert.Contains(t, got[i], p)
			}
		})
	}
	for _, bad := range []string{"no frontmatter", "---\nname: ucs\n", "---\n[a, b\n---\n"} {
		_, _, err := ParseFrontmatter([]byte(bad))
		assert.Error(t, err, bad)
	}
}

// buildUCS builds the ucs binary into dir.
func buildUCS(t *testing.T, dir string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	bin := filepath.Join(dir, "ucs-built")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/ucs")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// TestInstall installs the skill into a temporary skills directory, checks
// the files, runs the installed binary through a session, installs again
// (nothing changes), refuses to replace a different skill, and removes it.
func TestInstall(t *testing.T) {
	tmp := t.TempDir()
	exe := buildUCS(t, tmp)
	skills := filepath.Join(tmp, "skills")

	r, err := Install(skills, ucs.SkillMD, exe, false)
	require.NoError(t, err)
	assert.Len(t, r.Written, 2)
	installed, err := os.ReadFile(filepath.Join(skills, "ucs", "SKILL.md"))
	require.NoError(t, err)
	assert.Equal(t, ucs.SkillMD, installed, "byte-identical to the repository's")
	st, err := os.Stat(r.Binary)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), st.Mode().Perm())

	report := Check(r.Dir)
	assert.Empty(t, report.Problems)
	assert.Equal(t, "ucs", report.Name)
	assert.Contains(t, report.Version, `"ucs"`)

	// The installed binary runs a session from its folder.
	ws := filepath.Join(tmp, "ws")
	run := func(stdin string, args ...string) string {
		cmd := exec.Command(r.Binary, append([]string{"--workspace", ws}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Env = append(os.Environ(), "UCS_NOW=2026-11-21T21:01:00Z")
		out, err := cmd.Output()
		require.NoError(t, err, "%v: %s", args, out)
		return string(out)
	}
	assert.Contains(t, run("", "init"), `"status": "initialized"`)
	assert.Contains(t, run("", "resume"), `"status": "resumed"`)
	assert.Contains(t, run("", "consult", "--context", "research pricing"), `"suggested_paths"`)
	assert.Contains(t, run(`{"action": "read", "success": "success"}`, "report"), `"routed": true`)

	// Idempotent.
	r2, err := Install(skills, ucs.SkillMD, exe, false)
	require.NoError(t, err)
	assert.Empty(t, r2.Written)
	assert.Len(t, r2.Unchanged, 2)

	// A different skill of the same name is not replaced without force.
	other := []byte("---\nname: ucs\ndescription: someone else's\n---\n")
	require.NoError(t, os.WriteFile(r.SkillMD, other, 0o644))
	_, err = Install(skills, ucs.SkillMD, exe, false)
	assert.ErrorIs(t, err, ErrExists)
	kept, _ := os.ReadFile(r.SkillMD)
	assert.Equal(t, other, kept)
	_, err = Install(skills, ucs.SkillMD, exe, true)
	require.NoError(t, err)

	u, err := Uninstall(skills, false)
	require.NoError(t, err)
	assert.Len(t, u.Removed, 2)
	assert.NoDirExists(t, r.Dir)
}

// TestCheckReportsProblems: a broken skill folder is reported, file by file.
func TestCheckReportsProblems(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ucs")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: UCS\ndescription: d\nextra: 1\n---\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bin", "ucs"), []byte("not a program"), 0o755))
	r := Check(dir)
	assert.Len(t, r.Problems, 4, "%q", r.Problems) // extra field, uppercase, folder mismatch, binary does not run
}
