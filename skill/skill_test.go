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

// files are the skill's files as the binary holds them.
var files = []File{{Path: SkillMD, Data: ucs.SkillMD}, {Path: "references/commands.md", Data: ucs.CommandsMD}}

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
// (nothing changes), refuses to replace a different skill or another
// version's files, and removes it.
func TestInstall(t *testing.T) {
	tmp := t.TempDir()
	exe := buildUCS(t, tmp)
	skills := filepath.Join(tmp, "skills")

	r, err := Install(skills, files, exe, false)
	require.NoError(t, err)
	assert.Len(t, r.Written, 3)
	installed, err := os.ReadFile(filepath.Join(skills, "ucs", "SKILL.md"))
	require.NoError(t, err)
	assert.Equal(t, ucs.SkillMD, installed, "byte-identical to the repository's")
	reference, err := os.ReadFile(filepath.Join(skills, "ucs", "references", "commands.md"))
	require.NoError(t, err)
	assert.Equal(t, ucs.CommandsMD, reference, "byte-identical to the repository's")
	st, err := os.Stat(r.Binary)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), st.Mode().Perm())

	report := Check(r.Dir, files)
	assert.Empty(t, report.Problems)
	assert.Equal(t, "ucs", report.Name)
	assert.Equal(t, []FileState{{Path: SkillMD, State: Current}, {Path: "references/commands.md", State: Current}}, report.Files)
	assert.Contains(t, report.Version, `"ucs"`)
	// Regression (fixed): skill check answered the version command's
	// whole indented JSON as a string; the version is the version.
	assert.Regexp(t, `^\d+\.\d+\.\d+`, report.BinaryVersion)
	assert.NotContains(t, report.BinaryVersion, "{")

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
	assert.Contains(t, run(`{"action": "web_fetch", "success": "success"}`, "report"), `"cursor": "web_fetch"`)

	// Idempotent.
	r2, err := Install(skills, files, exe, false)
	require.NoError(t, err)
	assert.Empty(t, r2.Written)
	assert.Len(t, r2.Unchanged, 3)

	// Another skill's SKILL.md, or an edited reference, is not replaced
	// without force.
	for _, c := range []struct{ path, content, err string }{
		{r.SkillMD, "---\nname: other\ndescription: someone else's\n---\n", `is another skill's (name "other")`},
		{r.SkillMD, "---\nname: ucs\ndescription: d\nmetadata:\n  version: \"0.0.1\"\n---\n", "ucs 0.0.1 installed it"},
		{filepath.Join(r.Dir, "references", "commands.md"), "# edited\n", "edited, or installed by another build"},
	} {
		_, err = Install(skills, files, exe, true)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(c.path, []byte(c.content), 0o644))
		_, err = Install(skills, files, exe, false)
		assert.ErrorIs(t, err, ErrExists)
		assert.ErrorContains(t, err, c.err)
		kept, _ := os.ReadFile(c.path)
		assert.Equal(t, c.content, string(kept))
	}
	_, err = Install(skills, files, exe, true)
	require.NoError(t, err)

	u, err := Uninstall(skills, files, false)
	require.NoError(t, err)
	assert.Len(t, u.Removed, 3)
	assert.NoDirExists(t, r.Dir)
}

// TestCheckReportsProblems: each file that is not this binary's is
// reported, with what it is.
func TestCheckReportsProblems(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ucs")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bin"), 0o755))
	write := func(path, content string) {
		t.Helper()
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, path)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, path), []byte(content), 0o644))
	}
	write("SKILL.md", "---\nname: other\ndescription: d\n---\n")
	write("bin/ucs", "not a program")
	require.NoError(t, os.Chmod(filepath.Join(dir, "bin", "ucs"), 0o755))
	r := Check(dir, files)
	assert.Equal(t, "other", r.Name)
	assert.Equal(t, []string{Foreign, Missing}, []string{r.Files[0].State, r.Files[1].State})
	require.Len(t, r.Problems, 3, "%q", r.Problems) // another skill, no reference, a binary that does not run
	assert.Contains(t, r.Problems[0], `another skill's (name "other")`)
	assert.Contains(t, r.Problems[1], "references/commands.md is missing")
	assert.Contains(t, r.Problems[2], "bin/ucs does not run")

	// An older ucs's files: modified, and said so.
	write("SKILL.md", strings.Replace(string(ucs.SkillMD), `version: "`, `version: "0.0.`, 1))
	write("references/commands.md", "# older\n")
	require.NoError(t, os.Remove(filepath.Join(dir, "bin", "ucs")))
	r = Check(dir, files)
	assert.Equal(t, []string{Modified, Modified}, []string{r.Files[0].State, r.Files[1].State})
	require.Len(t, r.Problems, 2, "%q", r.Problems)
	for _, p := range r.Problems {
		assert.Regexp(t, `differs from this ucs's: ucs 0\.0\.[0-9.]+ installed it, this is ucs [0-9.]+$`, p)
	}
}

// TestInstallMCP: the MCP server beside the executable is installed
// beside bin/ucs, and removed with it; without one, none is.
func TestInstallMCP(t *testing.T) {
	tmp := t.TempDir()
	exe := filepath.Join(tmp, "ucs")
	require.NoError(t, os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755))
	r, err := Install(filepath.Join(tmp, "without"), files, exe, false)
	require.NoError(t, err)
	assert.Empty(t, r.MCPBinary)
	require.NoError(t, os.WriteFile(filepath.Join(tmp, MCPName), []byte("#!/bin/sh\n# mcp\n"), 0o755))
	skills := filepath.Join(tmp, "skills")
	r, err = Install(skills, files, exe, false)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(skills, "ucs", "bin", MCPName), r.MCPBinary)
	data, err := os.ReadFile(r.MCPBinary)
	require.NoError(t, err)
	assert.Contains(t, string(data), "# mcp")
	u, err := Uninstall(skills, files, false)
	require.NoError(t, err)
	assert.Contains(t, u.Removed, r.MCPBinary)
	assert.NoDirExists(t, filepath.Join(skills, "ucs"))
}
