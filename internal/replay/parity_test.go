package replay_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/cli"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/replay"
)

const fixtureDir = "../../testdata/reference-v2"

// ReferenceRules compare ucs with the reference's recordings: the default
// replay rules (see replay.DefaultRules for what is not compared and why).
// Everything else is compared: every number within 1e-4, every string,
// every list in order (suggested paths, artifacts, hits), every key.
var ReferenceRules = replay.DefaultRules

// ucsRunner runs the ucs command line in process.
func ucsRunner(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return cli.Run(args, cli.Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: getenv})
}

// TestReferenceSession replays the reference's 60-step session against a
// fresh workspace and compares every step with the reference's output.
func TestReferenceSession(t *testing.T) {
	ws := t.TempDir()
	manifest, err := os.ReadFile(filepath.Join(fixtureDir, "aegis-manifest.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "manifest.json"), manifest, 0o644))

	steps := readScript(t, filepath.Join(fixtureDir, "script.jsonl"))
	// The reference ran in /tmp/gen/ws; paths in its outputs name that.
	expected := readExpected(t, filepath.Join(fixtureDir, "expected.jsonl"), "/tmp/gen/ws", ws)
	require.Len(t, steps, 60)
	require.Len(t, expected, 60)
	env := fixedClock("2026-11-21T21:01:00Z")
	matched := 0
	for i, step := range steps {
		res, err := replay.Run(ucsRunner, ws, step, env)
		require.NoError(t, err)
		require.Equal(t, 0, res.Exit, "step %d %v: %s", i, step.Args, res.Stderr)
		diffs := replay.Compare(res.Output, expected[i], ReferenceRules)
		for _, d := range diffs {
			t.Errorf("step %d %v: %s", i, step.Args, d)
		}
		if len(diffs) == 0 {
			matched++
		}
	}
	t.Logf("%d of %d steps match the reference", matched, len(steps))
}

// TestReferenceWorkspace opens a workspace the Python reference wrote and
// keeps working in it: status, resume, consult, five reports with a
// φ-cycle, reflections, flush, synthesize and export must agree with what
// the reference answered on a copy of the same workspace
// (testdata/reference-v2/workspace-session/gen.py recorded it).
func TestReferenceWorkspace(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	require.NoError(t, os.CopyFS(ws, os.DirFS(filepath.Join(fixtureDir, "workspace"))))
	steps := readScript(t, filepath.Join(fixtureDir, "workspace-session", "script.jsonl"))
	expected := readExpected(t, filepath.Join(fixtureDir, "workspace-session", "expected.jsonl"), "$WORKSPACE", ws)
	require.Len(t, expected, len(steps))
	env := fixedClock("2026-11-21T21:05:00Z")
	for i, step := range steps {
		res, err := replay.Run(ucsRunner, ws, step, env)
		require.NoError(t, err)
		require.Equal(t, 0, res.Exit, "step %d %v: %s", i, step.Args, res.Stderr)
		for _, d := range replay.Compare(res.Output, expected[i], ReferenceRules) {
			t.Errorf("step %d %v: %s", i, step.Args, d)
		}
	}
	// The first change adopted the workspace: the reference's index is kept
	// as a backup, and the knowledge moved to the append-only files.
	assert.FileExists(t, filepath.Join(ws, "ucs/state/backup/reference/ucs_index.json"))
	assert.NoFileExists(t, filepath.Join(ws, "ucs/state/ucs_index.json"))
	assert.FileExists(t, filepath.Join(ws, "ucs/state/methodology.jsonl"))
}

func readScript(t *testing.T, path string) []replay.Step {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	steps, err := replay.ReadScript(f)
	require.NoError(t, err)
	return steps
}

// readExpected reads expected outputs, replacing the placeholder of the
// workspace path the reference ran in with ours.
func readExpected(t *testing.T, path, placeholder, ws string) []pyjson.Value {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	raw = bytes.ReplaceAll(raw, []byte(placeholder), []byte(strings.ReplaceAll(ws, `\`, `\\`)))
	out, err := replay.ReadResults(bytes.NewReader(raw))
	require.NoError(t, err)
	return out
}

// fixedClock is the environment of a reference session: the clock, and
// the reference's learning model (v2) for its init.
func fixedClock(now string) func(string) string {
	return func(k string) string {
		switch k {
		case "UCS_NOW":
			return now
		case "UCS_MODEL":
			return "v2"
		}
		return ""
	}
}
