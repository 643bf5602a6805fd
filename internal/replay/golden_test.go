package replay_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/replay"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

const goldenDir = "../../testdata/golden"

// TestGolden pins the exact bytes ucs prints for one call of each
// operation of the fixture session (the first of each kind), so any change
// of output shows up in review. Run `go test ./internal/replay -run
// TestGolden -update` to accept a deliberate change.
func TestGolden(t *testing.T) {
	ws := t.TempDir()
	manifest, err := os.ReadFile(filepath.Join(fixtureDir, "aegis-manifest.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "manifest.json"), manifest, 0o644))
	steps := readScript(t, filepath.Join(fixtureDir, "script.jsonl"))
	env := fixedClock("2026-11-21T21:01:00Z")
	seen := map[string]bool{}
	for i, step := range steps {
		res, err := replay.Run(ucsRunner, ws, step, env)
		require.NoError(t, err)
		op := step.Args[0]
		if op == "reflect" {
			typ, _ := step.Stdin.Get("type")
			op += "-" + typ.Str()
		}
		if seen[op] {
			continue
		}
		seen[op] = true
		// Paths name the test's temporary directory: write them as $WORKSPACE.
		out := []byte(strings.ReplaceAll(string(pyjson.Indent(res.Output)), ws, "$WORKSPACE") + "\n")
		path := filepath.Join(goldenDir, fmt.Sprintf("%02d-%s.json", i, op))
		if *update {
			require.NoError(t, os.MkdirAll(goldenDir, 0o755))
			require.NoError(t, os.WriteFile(path, out, 0o644))
			continue
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "missing golden file; run with -update")
		assert.Equal(t, string(want), string(out), "step %d %v differs from %s", i, step.Args, path)
	}
	// The session has no import, experiment or synthesis reflection; the
	// script tests cover those.
	assert.Len(t, seen, 11, "one golden file per operation and reflection type in the session")
}
