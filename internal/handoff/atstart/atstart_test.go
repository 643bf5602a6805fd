package atstart

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// This test binary imports atstart as cmd/ucs does: started with a call on
// a store, it becomes the ucs-pg found before its tests (or its flags) run.

const url = "postgres://ucs@/ucs?host=/nowhere"

// fakeStoreBinary writes a ucs-pg that says how it was called.
func fakeStoreBinary(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "ucs-pg")
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\necho \"handed off: $*\"\n"), 0o755))
	return p
}

// run runs the test binary at bin with args and UCS_STORE_BINARY (none if
// empty), and returns its combined output.
func run(t *testing.T, bin, storeBinary string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	if storeBinary != "" {
		cmd.Env = append(cmd.Env, "UCS_STORE_BINARY="+storeBinary)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestHandsOffAtStart(t *testing.T) {
	fake := fakeStoreBinary(t, t.TempDir())
	out, err := run(t, os.Args[0], fake, "--store", url, "--workspace-name", "a", "status")
	require.NoError(t, err, out)
	// The same command line.
	assert.Equal(t, "handed off: --store "+url+" --workspace-name a status\n", out)
}

func TestHandsOffToTheBinaryBeside(t *testing.T) {
	dir := t.TempDir()
	fakeStoreBinary(t, dir)
	self, err := os.ReadFile(os.Args[0])
	require.NoError(t, err)
	ucs := filepath.Join(dir, "ucs")
	require.NoError(t, os.WriteFile(ucs, self, 0o755))
	out, err := run(t, ucs, "", "--store="+url, "report")
	require.NoError(t, err, out)
	assert.Equal(t, "handed off: --store="+url+" report\n", out)
}

// Where it cannot hand off, the process goes on as if atstart were not
// there: the command line (here, the test binary's flags) answers, and
// ucs's says what is missing.
func TestNoHandOff(t *testing.T) {
	fake := fakeStoreBinary(t, t.TempDir())
	out, err := run(t, os.Args[0], filepath.Join(t.TempDir(), "nowhere"), "--store", url, "status")
	assert.Error(t, err)
	assert.Contains(t, out, "flag provided but not defined: -store", "a missing ucs-pg")
	out, err = run(t, os.Args[0], fake, "--workspace", "ws", "--store", "ws", "status")
	assert.Error(t, err)
	assert.Contains(t, out, "flag provided but not defined: -workspace", "a directory call")
	assert.NotContains(t, out, "handed off")
}

// Only cmd/ucs may import atstart: in ucs-pg it would hand a store call to
// ucs-pg again, for ever.
func TestOnlyUCSImportsIt(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	const module = "github.com/unified-cognitive-substrate/ucs/"
	out, err := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", module+"...").Output()
	require.NoError(t, err)
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		for _, imp := range fields[1:] {
			if imp == module+"internal/handoff/atstart" {
				assert.Equal(t, module+"cmd/ucs", fields[0], "imports atstart")
			}
		}
	}
}
