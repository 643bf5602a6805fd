package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const fixtureDir = "../../testdata/reference-v2"

// ReferenceRules are the rules for comparing ucs with the reference's
// recorded outputs. What is not compared, and why:
//   - timestamp, annotated_at, exported_at, until, since: wall-clock times
//     (ours come from UCS_NOW; the reference read the real clock, and its
//     since keeps the clock's microseconds);
//   - judgment_node_id, entry_id, and the id of judgment nodes,
//     methodology and dead-end entries: SHA-256 over entries that hold a
//     wall-clock timestamp;
//   - state_digest: SHA-256 of the whole state, which in ucs keeps the φ
//     log and artifact meta across reloads (the reference drops them);
//   - keywords are compared as sets: the reference builds them from a
//     Python set, whose order changes from run to run.
//
// Everything else is compared: every number within 1e-4, every string,
// every list in order (suggested paths, artifacts, hits), every key.
var ReferenceRules = Rules{
	Tolerance: 1e-4,
	Ignore: []string{"timestamp", "annotated_at", "exported_at", "until", "since",
		"judgment_node_id", "entry_id", "state_digest",
		"judgment_hits.id", "judgment_nodes.id", "methodology.id", "dead_ends.id"},
	Unordered: []string{"keywords"},
}

// TestReferenceSession replays the reference's 60-step session against a
// fresh workspace and compares every step with the reference's output.
func TestReferenceSession(t *testing.T) {
	ws := t.TempDir()
	manifest, err := os.ReadFile(filepath.Join(fixtureDir, "aegis-manifest.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "manifest.json"), manifest, 0o644))

	script, err := os.Open(filepath.Join(fixtureDir, "script.jsonl"))
	require.NoError(t, err)
	defer script.Close()
	steps, err := ReadScript(script)
	require.NoError(t, err)
	// The reference ran in /tmp/gen/ws; paths in its outputs name that.
	raw, err := os.ReadFile(filepath.Join(fixtureDir, "expected.jsonl"))
	require.NoError(t, err)
	raw = bytes.ReplaceAll(raw, []byte("/tmp/gen/ws"), []byte(strings.ReplaceAll(ws, `\`, `\\`)))
	expected, err := ReadResults(bytes.NewReader(raw))
	require.NoError(t, err)
	require.Len(t, steps, 60)
	require.Len(t, expected, 60)

	env := func(k string) string {
		if k == "UCS_NOW" {
			return "2026-11-21T21:01:00Z"
		}
		return ""
	}
	matched := 0
	for i, step := range steps {
		res, err := Run(ws, step, env)
		require.NoError(t, err)
		require.Equal(t, 0, res.Exit, "step %d %v: %s", i, step.Args, res.Stderr)
		diffs := Compare(res.Output, expected[i], ReferenceRules)
		for _, d := range diffs {
			t.Errorf("step %d %v: %s", i, step.Args, d)
		}
		if len(diffs) == 0 {
			matched++
		}
	}
	t.Logf("%d of %d steps match the reference", matched, len(steps))
}
