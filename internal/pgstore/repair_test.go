package pgstore_test

import (
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
