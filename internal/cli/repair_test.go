package cli_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRepairBrickedByInvalidUTF8: workspaces that an earlier ucs left
// unreadable by committing bytes that are not UTF-8 (from a flag or the
// environment) are repaired by check --repair: the event is rolled back
// and its bytes kept in a backup, the repair is itself a journaled event,
// and status, check and verify pass; the workspace keeps learning.
func TestRepairBrickedByInvalidUTF8(t *testing.T) {
	testRepairBricked(t, false)
}

// TestRepairBrickedWithoutPrev: the same workspaces without the previous
// commit's state (lost, or never kept: a store's mirror) are repaired too:
// the state before the bad event is rebuilt by replaying the history up
// to it, and restored only because its hash is the event's state_before.
func TestRepairBrickedWithoutPrev(t *testing.T) {
	testRepairBricked(t, true)
}

func testRepairBricked(t *testing.T, noPrev bool) {
	for _, name := range []string{"consult", "goal", "agent", "rate"} {
		t.Run(name, func(t *testing.T) {
			ws := filepath.Join(t.TempDir(), "ws")
			require.NoError(t, os.CopyFS(ws, os.DirFS(filepath.Join("../../testdata/workspaces/bricked-utf8", name))))
			if noPrev {
				require.NoError(t, os.Remove(filepath.Join(ws, "ucs/state/torusfield_state.json.prev")))
			}
			out, code := call(t, ws, nil, "", "status")
			require.Equal(t, 5, code, "the fixture is bricked: %s", out)
			out, code = call(t, ws, nil, "", "check", "--repair")
			require.Equal(t, 0, code, "check --repair: %s", mustCompact(out))
			repaired, _ := out.Get("repaired")
			require.NotEmpty(t, repaired.Items())
			assert.Contains(t, repaired.Items()[0].Str(), "not UTF-8")
			sound(t, ws)
			out, code = call(t, ws, nil, `{"action":"edit","success":"success"}`, "report")
			require.Equal(t, 0, code, "%s", mustCompact(out))
			logged, code := call(t, ws, nil, "", "log", "--op", "check")
			require.Equal(t, 0, code)
			assert.Contains(t, string(mustCompact(logged)), "rolled_back")
			sound(t, ws)
			backups, err := os.ReadDir(filepath.Join(ws, "ucs/state/backup"))
			require.NoError(t, err)
			assert.NotEmpty(t, backups, "the rolled-back bytes are kept")
		})
	}
}
