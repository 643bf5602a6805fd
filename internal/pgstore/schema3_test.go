package pgstore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
	"github.com/unified-cognitive-substrate/ucs/internal/pgstore"
)

// A store at schema 2 (two agents' roles, a shared workspace and a private
// one) migrates to schema 3 in place, several processes at once: every
// row is kept, each role goes on with its own workspaces, and the privacy
// between the roles is what it was; no policy reads a table any more
// (the functions it calls do, once a statement).
func TestMigrationFromSchema2(t *testing.T) {
	ctx := context.Background()
	admin := newEnv(t)
	require.NoError(t, pgstore.MigrateTo(ctx, admin.url, 2))
	_, aURL := pgtest.Role(t, admin.url, "agent_a", "ucs_agent")
	_, bURL := pgtest.Role(t, admin.url, "agent_b", "ucs_agent")
	a, b := admin.as(aURL), admin.as(bURL)
	// What a schema 2 ucs wrote: each role pushes its workspaces.
	ws := filepath.Join(t.TempDir(), "ws")
	dirUCS(t, ws, "", "init")
	dirUCS(t, ws, `{"type": "dead_end", "topic": "scraping the vendor billing portal", "why_closed": "a captcha on every page", "capabilities": ["browser"]}`, "reflect")
	for i := range 3 {
		dirUCS(t, ws, report("web_fetch", "success", i), "report")
	}
	for _, p := range []struct{ url, name string }{{aURL, "A"}, {aURL, "P"}, {bURL, "B"}} {
		require.NoError(t, pgstore.PushAsIs(ctx, p.url, p.name, t.TempDir(), ws))
	}
	n, err := sqlAs(t, aURL, `UPDATE ucs_workspaces SET private = true WHERE name = 'P'`)
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
	before := map[string]map[string]int64{}
	for _, name := range []string{"A", "P", "B"} {
		before[name] = rowsOf(t, admin.url, name)
		require.Positive(t, before[name]["ucs_journal"])
	}

	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = pgstore.MigrateTo(ctx, admin.url, pgstore.SchemaVersion) }()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	assert.Equal(t, int64(pgstore.SchemaVersion), rowCount(t, admin.url, `SELECT max(version) FROM ucs_schema`))
	for name, rows := range before {
		assert.Equal(t, rows, rowsOf(t, admin.url, name), "%s keeps its rows", name)
	}
	assert.Zero(t, rowCount(t, admin.url, `SELECT count(*) FROM pg_policies WHERE tablename LIKE 'ucs\_%'
		AND (coalesce(qual, '') ~ 'FROM ucs_' OR coalesce(with_check, '') ~ 'FROM ucs_')`), "a policy reads a table")

	// The same privacy: B reads A's rows, not P's, and writes neither.
	shared := before["A"]
	shared["ucs_fleet_members"] = 0
	assert.Equal(t, shared, rowsOf(t, bURL, "A"))
	assert.Equal(t, map[string]int64{"ucs_workspaces": 0, "ucs_fleet_members": 0, "ucs_journal": 0, "ucs_chunks": 0, "ucs_blobs": 0},
		rowsOf(t, bURL, "P"))
	for _, q := range []string{
		`INSERT INTO ucs_journal (workspace, seq, hash, line, version) VALUES ('A', 999, 'h', 'x', 999)`,
		`INSERT INTO ucs_chunks (workspace, path, off, data, version) VALUES ('P', 'x.jsonl', 999, 'x', 999)`,
		`INSERT INTO ucs_blobs (workspace, path, data, version) VALUES ('A', 'ucs/state/state.json', 'x', 999)`,
	} {
		_, err := sqlAs(t, bURL, q)
		var pe *pgconn.PgError
		require.True(t, errors.As(err, &pe), "%s: %v", q, err)
		assert.Equal(t, "42501", pe.Code, "%s: %v", q, err)
	}
	for _, q := range []string{
		`UPDATE ucs_journal SET line = line WHERE workspace = 'A'`,
		`DELETE FROM ucs_blobs WHERE workspace = 'A'`,
		`DELETE FROM ucs_chunks WHERE workspace = 'P'`,
	} {
		n, err := sqlAs(t, bURL, q)
		assert.NoError(t, err, q)
		assert.Zero(t, n, q)
	}
	b.refused("store_denied", 2, "A", report("read", "success", 9), "report")
	b.refused("not_initialized", 3, "P", "", "status")

	// Each role goes on with its own, and B's consult reads A, not P.
	a.must("A", report("read", "success", 9), "report")
	a.must("P", report("read", "success", 9), "report")
	a.must("A", "", "verify")
	b.must("B", report("read", "success", 9), "report")
	out := b.must("B", "", "consult", "--context", "scrape the vendor billing portal for invoices")
	assert.Contains(t, []string{"A", "B"}, gjson.Get(out, "dead_ends.0.agent").String(), out)
	assert.DirExists(t, filepath.Join(b.cache, "peers", "A"))
	_, err = os.Stat(filepath.Join(b.cache, "peers", "P"))
	assert.True(t, os.IsNotExist(err), "P is private")
	b.must("B", "", "verify")
	assert.Equal(t, "true", gjson.Get(a.must("P", "", "check"), "ok").Raw)
}

// The policies' functions read the store's tables whatever the calling
// role's search path: a temporary table of its own that says it owns
// another role's workspace makes it no owner, and the trigger that
// records a new workspace's owner writes the store's table. (Regression:
// with the migration's search path, a role's temporary tables, searched
// first, stood in for the store's.)
func TestPoliciesReadTheStoresTables(t *testing.T) {
	ctx := context.Background()
	admin := newEnv(t)
	require.NoError(t, pgstore.MigrateTo(ctx, admin.url, pgstore.SchemaVersion))
	_, aURL := pgtest.Role(t, admin.url, "agent_a", "ucs_agent")
	_, bURL := pgtest.Role(t, admin.url, "agent_b", "ucs_agent")
	admin.as(aURL).must("A", "", "init")
	before := rowsOf(t, admin.url, "A")
	conn, err := pgx.Connect(ctx, bURL)
	require.NoError(t, err)
	defer conn.Close(ctx)
	for _, q := range []string{
		`CREATE TEMPORARY TABLE ucs_fleet_members (workspace text, owner text, fleet text)`,
		`INSERT INTO pg_temp.ucs_fleet_members VALUES ('A', current_user, 'default')`,
		`CREATE TEMPORARY TABLE ucs_workspaces (name text)`,
		`INSERT INTO pg_temp.ucs_workspaces VALUES ('A')`,
		`SET search_path = pg_temp, public`,
	} {
		_, err := conn.Exec(ctx, q)
		require.NoError(t, err, q)
	}
	_, err = conn.Exec(ctx, `INSERT INTO public.ucs_journal (workspace, seq, hash, line, version) VALUES ('A', 999, 'h', 'x', 999)`)
	var pe *pgconn.PgError
	require.True(t, errors.As(err, &pe), "%v", err)
	assert.Equal(t, "42501", pe.Code, "%v", err)
	tag, err := conn.Exec(ctx, `DELETE FROM public.ucs_blobs WHERE workspace = 'A'`)
	require.NoError(t, err)
	assert.Zero(t, tag.RowsAffected())
	_, err = conn.Exec(ctx, `UPDATE public.ucs_workspaces SET private = true WHERE name = 'A'`)
	require.NoError(t, err)
	assert.Equal(t, before, rowsOf(t, admin.url, "A"))
	assert.Equal(t, int64(0), rowCount(t, admin.url, `SELECT count(*) FROM ucs_workspaces WHERE private`))
	// Its own new workspace's membership goes to the store's table.
	_, err = conn.Exec(ctx, `INSERT INTO public.ucs_workspaces (name) VALUES ('B')`)
	require.NoError(t, err)
	assert.Equal(t, int64(1), rowCount(t, admin.url, `SELECT count(*) FROM ucs_fleet_members WHERE workspace = 'B'`))
}
