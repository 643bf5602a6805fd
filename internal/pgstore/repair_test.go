package pgstore_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// TestRepairBrickedInTheStore: a workspace an earlier ucs bricked with
// bytes that are not UTF-8 (its last event), pushed into a store as that
// ucs would have stored it, is repaired by check --repair through the
// store: the bad event's row is replaced by the repair's record (same
// seq, linked to the event before), what the bad event appended is cut
// from the stored chunks, and the state blob is the one before it. Status,
// check and verify then pass on this machine's mirror and on another
// machine's, and the workspace keeps learning.
func TestRepairBrickedInTheStore(t *testing.T) {
	for _, name := range []string{"consult", "goal", "agent", "rate"} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			ws := filepath.Join(t.TempDir(), "ws")
			require.NoError(t, os.CopyFS(ws, os.DirFS(filepath.Join("../../testdata/workspaces/bricked-utf8", name))))
			cmd := exec.Command(os.Args[0], "--workspace", ws, "--workspace-name", "a", "store", "push", "--to", e.url)
			cmd.Env = append(os.Environ(), "UCS_TEST_AS_UCS=1", "UCS_STORE_CACHE="+e.cache)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			bad := storedEvent(t, e.url, "a", 7)
			require.Equal(t, int64(7), rowCount(t, e.url, `SELECT count(*) FROM ucs_journal WHERE workspace = 'a'`))

			res, code := e.ucs("a", "", "status")
			require.Equal(t, 5, code, "the stored workspace is bricked: %s", res)
			res = e.must("a", "", "check", "--repair")
			assert.Contains(t, gjson.Get(res, "repaired.0").String(), "not UTF-8", res)

			// The row of seq 7 is the repair's record, linked to event 6.
			rec := storedEvent(t, e.url, "a", 7)
			assert.Equal(t, "check", gjson.Get(rec, "op").String(), rec)
			assert.Equal(t, gjson.Get(bad, "parent").String(), gjson.Get(rec, "parent").String())
			assert.Equal(t, gjson.Get(bad, "state_before").String(), gjson.Get(rec, "state_before").String(),
				"the state is the one before the bad event")
			assert.Equal(t, int64(7), rowCount(t, e.url, `SELECT count(*) FROM ucs_journal WHERE workspace = 'a'`))
			assert.Equal(t, int64(6), rowCount(t, e.url, `SELECT count(*) FROM ucs_journal WHERE workspace = 'a' AND version = 1`),
				"the events before are kept as pushed, not stored again")
			// Nothing the bad event appended is stored any more.
			for p, off := range gjson.Get(bad, "files").Map() {
				assert.Equal(t, int64(0), rowCount(t, e.url, `SELECT count(*) FROM ucs_chunks
					WHERE workspace = 'a' AND path = $1 AND off + length(data) > $2`, p, off.Int()), p)
			}

			sound := func() {
				t.Helper()
				e.must("a", "", "status")
				assert.Equal(t, "true", gjson.Get(e.must("a", "", "check"), "ok").Raw)
				e.must("a", "", "verify")
			}
			sound()
			e.must("a", report("read", "success", 1), "report")
			sound()
			assert.Contains(t, e.must("a", "", "log", "--op", "check"), "rolled_back")

			// Another machine: a mirror of its own, from the store's rows.
			first := e.cache
			e.cache = t.TempDir()
			sound()
			e.must("a", report("read", "success", 2), "report")
			// And back on the first machine, whose mirror is behind.
			e.cache = first
			sound()
			assert.Equal(t, reportsBefore(t, e.url)+2, gjson.Get(e.must("a", "", "status"), "reports_total").Int(),
				"the reports kept, and the two after the repair")
		})
	}
}

// storedEvent is the journal row of seq, as text.
func storedEvent(t *testing.T, url, name string, seq int64) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var line []byte
	require.NoError(t, conn.QueryRow(ctx, `SELECT line FROM ucs_journal WHERE workspace = $1 AND seq = $2`, name, seq).Scan(&line))
	return string(line)
}

// reportsBefore counts the report events of the history the repair kept
// (before seq 7).
func reportsBefore(t *testing.T, url string) int64 {
	return rowCount(t, url, `SELECT count(*) FROM ucs_journal WHERE workspace = 'a' AND seq < 7
		AND convert_from(line, 'UTF8')::jsonb->>'op' = 'report'`)
}

// TestRepairBrickedEventCommittedInTheStore: the bad event as the
// previous release committed it through a store, a version of its own
// (its journal row, the chunks it appended, the state blob), after a
// workspace pushed sound. check --repair on one machine; a machine whose
// mirror was synced before the bad event catches up by pulling the
// repair's version, and one whose mirror holds the bad event rebuilds it:
// on each, status, check and verify pass and the workspace learns on.
func TestRepairBrickedEventCommittedInTheStore(t *testing.T) {
	for _, name := range []string{"agent", "consult"} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			fixture := filepath.Join("../../testdata/workspaces/bricked-utf8", name)
			journal, err := os.ReadFile(filepath.Join(fixture, "ucs/state/journal.jsonl"))
			require.NoError(t, err)
			cut := bytes.LastIndexByte(journal[:len(journal)-1], '\n') + 1
			bad := string(journal[cut:])

			// The workspace before the bad event, pushed.
			ws := filepath.Join(t.TempDir(), "ws")
			require.NoError(t, os.CopyFS(ws, os.DirFS(fixture)))
			state := filepath.Join(ws, "ucs/state")
			require.NoError(t, os.WriteFile(filepath.Join(state, "journal.jsonl"), journal[:cut], 0o600))
			require.NoError(t, os.Rename(filepath.Join(state, "torusfield_state.json.prev"), filepath.Join(state, "torusfield_state.json")))
			for p, off := range gjson.Get(bad, "files").Map() {
				require.NoError(t, os.Truncate(filepath.Join(ws, p), off.Int()))
			}
			cmd := exec.Command(os.Args[0], "--workspace", ws, "--workspace-name", "a", "store", "push", "--to", e.url)
			cmd.Env = append(os.Environ(), "UCS_TEST_AS_UCS=1", "UCS_STORE_CACHE="+e.cache)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			machineA, machineB, machineC := e.cache, t.TempDir(), t.TempDir()
			e.cache = machineB
			e.must("a", "", "status") // B's mirror: version 1, before the bad event
			// A file no store holds: still there after B's next sync, it
			// shows that B pulled the versions it lacked, not rebuilt.
			marker := filepath.Join(machineB, "ws", "a", "ucs/state/snapshots/marker")
			require.NoError(t, os.MkdirAll(filepath.Dir(marker), 0o700))
			require.NoError(t, os.WriteFile(marker, nil, 0o600))

			// The bad event, committed as version 2 as the previous release did.
			ctx := context.Background()
			conn, err := pgx.Connect(ctx, e.url)
			require.NoError(t, err)
			defer conn.Close(ctx)
			tx, err := conn.Begin(ctx)
			require.NoError(t, err)
			_, err = tx.Exec(ctx, `INSERT INTO ucs_journal (workspace, seq, hash, line, version) VALUES ('a', 7, $1, $2, 2)`,
				gjson.Get(bad, "hash").String(), []byte(bad))
			require.NoError(t, err)
			for p, off := range gjson.Get(bad, "files").Map() {
				data, err := os.ReadFile(filepath.Join(fixture, p))
				require.NoError(t, err)
				_, err = tx.Exec(ctx, `INSERT INTO ucs_chunks (workspace, path, off, data, version) VALUES ('a', $1, $2, $3, 2)`,
					p, off.Int(), data[off.Int():])
				require.NoError(t, err)
			}
			bricked, err := os.ReadFile(filepath.Join(fixture, "ucs/state/torusfield_state.json"))
			require.NoError(t, err)
			_, err = tx.Exec(ctx, `UPDATE ucs_blobs SET data = $1, version = 2 WHERE workspace = 'a' AND path = 'ucs/state/torusfield_state.json'`, bricked)
			require.NoError(t, err)
			_, err = tx.Exec(ctx, `UPDATE ucs_workspaces SET version = 2, seq = 7, journal_bytes = $1 WHERE name = 'a'`, len(journal))
			require.NoError(t, err)
			require.NoError(t, tx.Commit(ctx))

			e.cache = machineC
			res, code := e.ucs("a", "", "status")
			require.Equal(t, 5, code, "bricked: %s", res) // C's mirror holds the bad event

			e.cache = machineA
			res = e.must("a", "", "check", "--repair")
			assert.Contains(t, gjson.Get(res, "repaired.0").String(), "not UTF-8", res)
			assert.Equal(t, "check", gjson.Get(storedEvent(t, e.url, "a", 7), "op").String())
			assert.Equal(t, int64(6), rowCount(t, e.url, `SELECT count(*) FROM ucs_journal WHERE workspace = 'a' AND version = 1`),
				"the events before are kept as pushed")
			for p, off := range gjson.Get(bad, "files").Map() {
				assert.Equal(t, int64(0), rowCount(t, e.url, `SELECT count(*) FROM ucs_chunks
					WHERE workspace = 'a' AND path = $1 AND off + length(data) > $2`, p, off.Int()), p)
			}

			e.cache = machineB
			e.must("a", "", "status")
			assert.FileExists(t, marker, "B pulled the repair")
			pulled := filepath.Join(t.TempDir(), "pulled")
			e.must("a", "", "store", "pull", "--to", pulled)
			assert.Equal(t, storedFiles(t, pulled), storedFiles(t, filepath.Join(machineB, "ws", "a")),
				"B's mirror holds the store's files")
			i := 0
			for _, m := range []string{machineB, machineC, machineA, machineB} {
				e.cache = m
				e.must("a", "", "status")
				assert.Equal(t, "true", gjson.Get(e.must("a", "", "check"), "ok").Raw)
				e.must("a", "", "verify")
				i++
				e.must("a", report("read", "success", i), "report")
			}
			assert.Equal(t, reportsBefore(t, e.url)+4, gjson.Get(e.must("a", "", "status"), "reports_total").Int())
		})
	}
}

// TestRepairBrickedReflectInTheStore: a bad last event that created a
// data file and changed the book of observations, pushed into a store
// (which keeps neither the previous state nor the previous book), is
// rolled back whole by check --repair through the store: the state and
// the book before it come from a replay, the created file is removed from
// the store, and every machine's mirror is sound.
func TestRepairBrickedReflectInTheStore(t *testing.T) {
	e := newEnv(t)
	ws := filepath.Join(t.TempDir(), "ws")
	dirUCS(t, ws, "", "init")
	dirUCS(t, ws, `{"type": "post_task", "text": "Fetch whole pages: snippets truncate price tables.", "capabilities": ["web_fetch"]}`, "reflect")
	deadEnd := `{"type": "dead_end", "topic": "scraping the vendor portal", "why_closed": "captcha", "capabilities": ["browser"]}`
	dirUCS(t, ws, deadEnd, "reflect")
	// As an earlier ucs committed UCS_AGENT_ID=$'a\xff'.
	jpath := filepath.Join(ws, "ucs/state/journal.jsonl")
	journal, err := os.ReadFile(jpath)
	require.NoError(t, err)
	i := bytes.LastIndex(journal, []byte(`"agent_id":"a"`))
	require.Greater(t, i, bytes.LastIndexByte(journal[:len(journal)-1], '\n'))
	journal = append(journal[:i:i], append([]byte(`"agent_id":"a`+"\xff"+`"`), journal[i+len(`"agent_id":"a"`):]...)...)
	require.NoError(t, os.WriteFile(jpath, journal, 0o600))
	cmd := exec.Command(os.Args[0], "--workspace", ws, "--workspace-name", "a", "store", "push", "--to", e.url)
	cmd.Env = append(os.Environ(), "UCS_TEST_AS_UCS=1", "UCS_STORE_CACHE="+e.cache)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	_, code := e.ucs("a", "", "status")
	require.Equal(t, 5, code)

	res := e.must("a", "", "check", "--repair")
	assert.Equal(t, int64(1), gjson.Get(res, "repaired.#").Int(), "the rollback alone: %s", res)
	assert.Equal(t, int64(0), rowCount(t, e.url, `SELECT count(*) FROM ucs_chunks WHERE workspace = 'a' AND path = 'ucs/state/dead_ends.jsonl'`))
	for _, cache := range []string{e.cache, t.TempDir()} {
		e.cache = cache
		e.must("a", "", "status")
		assert.Equal(t, "true", gjson.Get(e.must("a", "", "check"), "ok").Raw)
		e.must("a", "", "verify")
		assert.NotContains(t, e.must("a", "", "observations"), "vendor portal")
	}
	e.must("a", deadEnd, "reflect")
	assert.Equal(t, "true", gjson.Get(e.must("a", "", "check"), "ok").Raw)
	e.must("a", "", "verify")
}
