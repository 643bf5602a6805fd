package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
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

// TestRepairBrickedReflect: a bad last event that created a data file
// (its recorded offset -1) and changed the book of observations is rolled
// back whole: the file it created is removed by the rollback itself (not
// left for check to cut as uncommitted lines), and the book the state
// before it names is there, from .prev or, without one, from the replay.
func TestRepairBrickedReflect(t *testing.T) {
	for _, noPrev := range []bool{false, true} {
		t.Run(map[bool]string{false: "prev", true: "replay"}[noPrev], func(t *testing.T) {
			ws := filepath.Join(t.TempDir(), "ws")
			for _, c := range []struct{ in, op string }{
				{"", "init"},
				{`{"type": "post_task", "text": "Fetch whole pages: snippets truncate price tables.", "capabilities": ["web_fetch"]}`, "reflect"},
				{`{"type": "dead_end", "topic": "scraping the vendor portal", "why_closed": "captcha", "capabilities": ["browser"]}`, "reflect"},
			} {
				out, code := call(t, ws, nil, c.in, c.op)
				require.Equal(t, 0, code, "%s", mustCompact(out))
			}
			state := filepath.Join(ws, "ucs/state")
			require.FileExists(t, filepath.Join(state, "dead_ends.jsonl"))
			// As an earlier ucs committed UCS_AGENT_ID=$'de\xfffault'.
			journal, err := os.ReadFile(filepath.Join(state, "journal.jsonl"))
			require.NoError(t, err)
			i := bytes.LastIndex(journal, []byte(`"agent_id":"default"`))
			require.Greater(t, i, bytes.LastIndexByte(journal[:len(journal)-1], '\n'))
			journal = slices.Concat(journal[:i], []byte(`"agent_id":"de`+"\xff"+`fault"`), journal[i+len(`"agent_id":"default"`):])
			require.NoError(t, os.WriteFile(filepath.Join(state, "journal.jsonl"), journal, 0o600))
			if noPrev {
				require.NoError(t, os.Remove(filepath.Join(state, "torusfield_state.json.prev")))
				require.NoError(t, os.Remove(filepath.Join(state, "observations.json.prev")))
			}
			_, code := call(t, ws, nil, "", "status")
			require.Equal(t, 5, code)

			out, code := call(t, ws, nil, "", "check", "--repair")
			require.Equal(t, 0, code, "check --repair: %s", mustCompact(out))
			repaired, _ := out.Get("repaired")
			require.Len(t, repaired.Items(), 1, "the rollback alone: %s", mustCompact(out))
			assert.NoFileExists(t, filepath.Join(state, "dead_ends.jsonl"), "the file the event created")
			sound(t, ws)
			out, code = call(t, ws, nil, "", "observations")
			require.Equal(t, 0, code, "%s", mustCompact(out))
			assert.NotContains(t, string(mustCompact(out)), "vendor portal")
			out, code = call(t, ws, nil, `{"type": "dead_end", "topic": "scraping the vendor portal", "why_closed": "captcha", "capabilities": ["browser"]}`, "reflect")
			require.Equal(t, 0, code, "%s", mustCompact(out))
			sound(t, ws)
		})
	}
}
