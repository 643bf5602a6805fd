package pgstore_test

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
	"github.com/unified-cognitive-substrate/ucs/internal/pgstore"
)

// as is e reached as another role (its URL), from a machine of its own
// (its own cache of mirrors).
func (e *env) as(url string) *env {
	return &env{t: e.t, url: url, cache: e.t.TempDir(), vars: slices.Clone(e.vars)}
}

// raw runs one ucs process with exactly args (no store or workspace name
// added).
func (e *env) raw(args ...string) (string, int) {
	e.t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), append(e.vars, "UCS_TEST_AS_UCS=1", "UCS_STORE_CACHE="+e.cache)...)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	}
	require.NoError(e.t, err)
	return out.String(), 0
}

// refused runs ucs as name and requires the error code (and its exit
// code).
func (e *env) refused(code string, exit int, name, stdin string, args ...string) {
	e.t.Helper()
	out, got := e.ucs(name, stdin, args...)
	assert.Equal(e.t, exit, got, "ucs %v: %s", args, out)
	assert.Equal(e.t, code, gjson.Get(out, "code").String(), "ucs %v: %s", args, out)
}

// sqlAs runs one statement as the URL's role: the rows it touched, or its
// error.
func sqlAs(t *testing.T, url, q string, args ...any) (int64, error) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer conn.Close(ctx)
	tag, err := conn.Exec(ctx, q, args...)
	return tag.RowsAffected(), err
}

// rowsOf counts a workspace's rows in each table, as the URL's role sees
// them.
func rowsOf(t *testing.T, url, name string) map[string]int64 {
	out := map[string]int64{}
	for _, table := range []string{"ucs_workspaces", "ucs_fleet_members", "ucs_journal", "ucs_chunks", "ucs_blobs"} {
		col := "workspace"
		if table == "ucs_workspaces" {
			col = "name"
		}
		out[table] = rowCount(t, url, "SELECT count(*) FROM "+table+" WHERE "+col+" = $1", name)
	}
	return out
}

// privacyRoles is a store with two agents' roles and an operator's: the
// store's URL as its superuser, and as each role.
func privacyRoles(t *testing.T) (admin, a, b, op *env, aRole string) {
	admin = newEnv(t)
	require.NoError(t, pgstore.MigrateTo(context.Background(), admin.url, pgstore.SchemaVersion))
	aRole, aURL := pgtest.Role(t, admin.url, "agent_a", "ucs_agent")
	_, bURL := pgtest.Role(t, admin.url, "agent_b", "ucs_agent")
	_, opURL := pgtest.Role(t, admin.url, "operator", "ucs_operator")
	return admin, admin.as(aURL), admin.as(bURL), admin.as(opURL), aRole
}

// Two agents' roles and an operator's on one store, through the command
// line (ucs-pg's code): a shared workspace is read by its fleet (consult,
// pull) and changed by no other role; a private one is not selected,
// pulled, pushed over, set, consulted from or mirrored by another role,
// whatever the command, and leaves the other's cache on its next consult;
// the operator reads every row and changes none.
func TestPrivacyBetweenRoles(t *testing.T) {
	admin, a, b, op, aRole := privacyRoles(t)
	deadEnd := `{"type": "dead_end", "topic": "scraping the vendor billing portal", "why_closed": "a captcha on every page of the billing portal", "capabilities": ["browser"]}`
	task := "scrape the vendor billing portal for invoices"
	a.must("A", "", "init")
	a.must("A", deadEnd, "reflect")
	b.must("B", "", "init")
	var owner string
	conn, err := pgx.Connect(context.Background(), admin.url)
	require.NoError(t, err)
	require.NoError(t, conn.QueryRow(context.Background(), `SELECT owner FROM ucs_workspaces WHERE name = 'A'`).Scan(&owner))
	conn.Close(context.Background())
	assert.Equal(t, aRole, owner, "the role that created it owns it")
	all := rowsOf(t, admin.url, "A")
	require.Greater(t, all["ucs_journal"], int64(0))

	// Shared: B's fleet reads A.
	out := b.must("B", "", "consult", "--context", task)
	assert.Equal(t, "A", gjson.Get(out, "dead_ends.0.agent").String(), out)
	assert.DirExists(t, filepath.Join(b.cache, "peers", "A"))
	copyDir := filepath.Join(t.TempDir(), "copy")
	b.must("A", "", "store", "pull", "--to", copyDir)
	dirUCS(t, copyDir, "", "verify")
	shared := maps.Clone(all)
	shared["ucs_fleet_members"] = 0 // which fleets a role is in is its own
	assert.Equal(t, shared, rowsOf(t, b.url, "A"), "B reads A's rows")

	// But changes none of it, by any command or statement.
	b.refused("store_denied", 2, "A", report("read", "success", 1), "report")
	b.refused("store_denied", 2, "A", deadEnd, "reflect")
	b.refused("store_denied", 2, "A", "", "init")
	b.refused("store_denied", 2, "A", "", "store", "set", "--private")
	b.refused("store_denied", 2, "A", "", "store", "set", "--fleet", "elsewhere")
	b.refused("store_denied", 2, "A", "", "check", "--repair")
	res := mcpTool(t, b, "A", "report", map[string]any{"action": "read", "success": "success"})
	assert.True(t, res.IsError)
	assert.Equal(t, "store_denied", gjson.Get(toolText(res), "code").String(), toolText(res))
	ws := filepath.Join(t.TempDir(), "ws")
	dirUCS(t, ws, "", "init")
	out, code := b.raw("--workspace", ws, "--workspace-name", "A", "--compact", "store", "push", "--to", b.url)
	assert.Equal(t, 2, code, out)
	assert.Equal(t, "store_denied", gjson.Get(out, "code").String(), out)
	out, code = b.raw("--workspace", ws, "--workspace-name", "Z", "--compact", "store", "push", "--to", b.url)
	assert.Equal(t, 0, code, "B pushes its own: %s", out)
	for _, q := range []string{
		`UPDATE ucs_workspaces SET private = false, version = version + 1 WHERE name = 'A'`,
		`UPDATE ucs_workspaces SET owner = current_user WHERE name = 'A'`,
		`UPDATE ucs_journal SET line = line WHERE workspace = 'A'`,
		`DELETE FROM ucs_journal WHERE workspace = 'A'`,
		`DELETE FROM ucs_blobs WHERE workspace = 'A'`,
		`DELETE FROM ucs_chunks WHERE workspace = 'A'`,
		`UPDATE ucs_fleet_members SET fleet = 'x' WHERE workspace = 'A'`,
	} {
		n, err := sqlAs(t, b.url, q)
		assert.NoError(t, err, q)
		assert.Zero(t, n, "row-level security hides A's rows from B's %s", q)
	}
	for _, q := range []string{
		`INSERT INTO ucs_journal (workspace, seq, hash, line, version) VALUES ('A', 999, 'h', 'x', 999)`,
		`INSERT INTO ucs_blobs (workspace, path, data, version) VALUES ('A', 'ucs/state/state.json', 'x', 999)`,
		`INSERT INTO ucs_workspaces (name, owner) VALUES ('Y', '` + aRole + `')`,
		`UPDATE ucs_workspaces SET owner = '` + aRole + `' WHERE name = 'B'`,
		// Which workspaces a role owns, as the other tables' policies
		// read it, is not the role's to rewrite.
		`DELETE FROM ucs_fleet_members WHERE workspace = 'B'`,
		`UPDATE ucs_fleet_members SET workspace = 'A' WHERE workspace = 'B'`,
	} {
		_, err := sqlAs(t, b.url, q)
		var pe *pgconn.PgError
		require.True(t, errors.As(err, &pe), "%s: %v", q, err)
		assert.Equal(t, "42501", pe.Code, "%s: %v", q, err)
	}
	_, err = sqlAs(t, b.url, `INSERT INTO ucs_fleet_members (workspace, owner, fleet) VALUES ('A', current_user, 'default')`)
	assert.Error(t, err, "A has its row")
	assert.Equal(t, all, rowsOf(t, admin.url, "A"), "A's rows are unchanged")

	// Private: gone from B's reads, its cache and its consults.
	a.must("A", "", "store", "set", "--private")
	out = b.must("B", "", "consult", "--context", task)
	assert.NotContains(t, out, `"agent":"A"`, out)
	assert.NoDirExists(t, filepath.Join(b.cache, "peers", "A"), "the private workspace left B's cache")
	assert.NoFileExists(t, filepath.Join(b.cache, "peers", "A.version"))
	assert.Equal(t, map[string]int64{"ucs_workspaces": 0, "ucs_fleet_members": 0, "ucs_journal": 0, "ucs_chunks": 0, "ucs_blobs": 0},
		rowsOf(t, b.url, "A"), "B selects none of A's rows")
	// Every command on it by name finds nothing (as if there were no A),
	// except the ones that would take its name.
	b.refused("not_initialized", 3, "A", "", "status")
	b.refused("not_initialized", 3, "A", "", "consult", "--context", task)
	b.refused("not_initialized", 3, "A", "", "export")
	b.refused("not_initialized", 3, "A", "", "verify")
	b.refused("not_initialized", 3, "A", report("read", "success", 1), "report")
	b.refused("not_initialized", 3, "A", "", "store", "pull", "--to", filepath.Join(t.TempDir(), "copy"))
	b.refused("not_initialized", 3, "A", "", "store", "set", "--shared")
	b.refused("store_denied", 2, "A", "", "init")
	out, code = b.raw("--workspace", ws, "--workspace-name", "A", "--compact", "store", "push", "--to", b.url)
	assert.Equal(t, 2, code, out)
	assert.Equal(t, "store_denied", gjson.Get(out, "code").String(), out)
	n, err := sqlAs(t, b.url, `UPDATE ucs_workspaces SET private = false WHERE name = 'A'`)
	assert.NoError(t, err)
	assert.Zero(t, n)
	assert.Equal(t, all, rowsOf(t, admin.url, "A"), "A's rows are unchanged")

	// An MCP server of B's role (the Runner's path) on A fares the same.
	res = mcpTool(t, b, "A", "consult", map[string]any{"context": task})
	assert.True(t, res.IsError)
	assert.Equal(t, "not_initialized", gjson.Get(toolText(res), "code").String(), toolText(res))
	res = mcpTool(t, b, "B", "consult", map[string]any{"context": task})
	assert.False(t, res.IsError, toolText(res))
	assert.NotContains(t, toolText(res), `"agent":"A"`)

	// The operator reads every row, and pulls A, but changes nothing.
	assert.Equal(t, shared, rowsOf(t, op.url, "A"), "every row of the workspace (its fleet is its row's)")
	opCopy := filepath.Join(t.TempDir(), "op-copy")
	op.must("A", "", "store", "pull", "--to", opCopy)
	dirUCS(t, opCopy, "", "verify")
	op.refused("store_denied", 2, "A", report("read", "success", 1), "report")
	op.refused("store_denied", 2, "A", "", "store", "set", "--shared")
	n, err = sqlAs(t, op.url, `DELETE FROM ucs_journal WHERE workspace = 'A'`)
	assert.Error(t, err, "the operator reads only")
	assert.Zero(t, n)

	// A is whole and goes on; shared again, B reads it again, unless B
	// leaves A's fleet.
	a.must("A", report("web_fetch", "success", 2), "report")
	a.must("A", "", "verify")
	assert.Equal(t, "true", gjson.Get(a.must("A", "", "check"), "ok").Raw)
	a.must("A", "", "store", "set", "--shared")
	out = b.must("B", "", "consult", "--context", task)
	assert.Equal(t, "A", gjson.Get(out, "dead_ends.0.agent").String(), out)
	b.must("B", "", "store", "set", "--fleet", "team-2")
	b.must("Z", "", "store", "set", "--fleet", "team-2") // B's role's other workspace
	out = b.must("B", "", "consult", "--context", task)
	assert.NotContains(t, out, `"agent":"A"`, out)
	assert.NoDirExists(t, filepath.Join(b.cache, "peers", "A"), "a workspace of a fleet B left leaves B's cache")
	assert.Zero(t, rowsOf(t, b.url, "A")["ucs_journal"])
	b.must("B", "", "verify")
}

// A store an older ucs filled (schema 1) migrates in place, keeping its
// rows, whether the migrating role is a superuser or the database's owner
// (which FORCE makes subject to row-level security): the owner of the
// rows it held is the migrating role, which goes on using them. Several
// processes migrating at once take turns.
func TestMigrationToOwners(t *testing.T) {
	for _, as := range []string{"superuser", "owner"} {
		t.Run(as, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t)
			role := "ucs"
			if as == "owner" {
				var url string
				role, url = pgtest.Role(t, e.url, "owner")
				db := strings.TrimPrefix(strings.Split(e.url, "?")[0], "postgres://ucs@/")
				_, err := sqlAs(t, e.url, "ALTER DATABASE "+db+" OWNER TO "+role)
				require.NoError(t, err)
				e = e.as(url)
			}
			require.NoError(t, pgstore.MigrateTo(ctx, e.url, 1))
			ws := filepath.Join(t.TempDir(), "ws")
			dirUCS(t, ws, "", "init")
			for i := range 3 {
				dirUCS(t, ws, report("web_fetch", "success", i), "report")
			}
			require.NoError(t, pgstore.PushAsIs(ctx, e.url, "old", t.TempDir(), ws))
			journal := rowCount(t, e.url, `SELECT count(*) FROM ucs_journal WHERE workspace = 'old'`)
			require.Equal(t, int64(4), journal)

			var wg sync.WaitGroup
			errs := make([]error, 4)
			for i := range errs {
				wg.Add(1)
				go func() { defer wg.Done(); errs[i] = pgstore.MigrateTo(ctx, e.url, pgstore.SchemaVersion) }()
			}
			wg.Wait()
			for _, err := range errs {
				require.NoError(t, err)
			}
			assert.Equal(t, int64(pgstore.SchemaVersion), rowCount(t, e.url, `SELECT max(version) FROM ucs_schema`))
			assert.Equal(t, journal, rowCount(t, e.url, `SELECT count(*) FROM ucs_journal WHERE workspace = 'old'`))
			assert.Equal(t, int64(1), rowCount(t, e.url, `SELECT count(*) FROM ucs_workspaces WHERE name = 'old' AND owner = $1`, role))
			assert.Equal(t, int64(1), rowCount(t, e.url, `SELECT count(*) FROM ucs_fleet_members WHERE workspace = 'old' AND owner = $1`, role))
			e.must("old", "", "verify")
			e.must("old", report("read", "success", 9), "report")
			assert.Equal(t, int64(4), gjson.Get(e.must("old", "", "status"), "reports_total").Int())
			e.must("new", "", "init")
			e.must("new", "", "consult", "--context", "pricing")
			assert.Equal(t, "true", gjson.Get(e.must("old", "", "check"), "ok").Raw)
		})
	}
}

// mcpTool calls one tool of an MCP server on the store (ucs-mcp --store)
// as e's role, on workspace name.
func mcpTool(t *testing.T, e *env, name, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), append(e.vars, "UCS_TEST_AS_MCP="+e.url, "UCS_WORKSPACE_NAME="+name, "UCS_STORE_CACHE="+e.cache)...)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	require.NoError(t, err)
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	return res
}

// toolText is a tool's answer, its one text content.
func toolText(res *mcp.CallToolResult) string {
	if len(res.Content) != 1 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// With one role for every agent (no row-level security between them), a
// workspace that goes private still leaves every peer's cache on the
// peer's next consult: its mirror there, journal and all, is removed.
// (Regression: the mirror stayed, the private agent's full journal with
// it.)
func TestPrivateLeavesPeersCaches(t *testing.T) {
	e := newEnv(t)
	e.must("A", "", "init")
	e.must("A", `{"type": "post_task", "text": "Fetch whole pages.", "capabilities": ["web_fetch"]}`, "reflect")
	e.must("B", "", "init")
	e.must("B", "", "consult", "--context", "fetch pages")
	peer := filepath.Join(e.cache, "peers", "A")
	require.FileExists(t, filepath.Join(peer, "ucs", "state", "journal.jsonl"))
	e.must("A", "", "store", "set", "--private")
	e.must("B", report("read", "success", 1), "report")
	assert.DirExists(t, peer, "a call that mirrors no peer leaves them")
	e.must("B", "", "consult", "--context", "fetch pages")
	assert.NoDirExists(t, peer)
	assert.NoFileExists(t, peer+".version")
	// Shared again, it comes back.
	e.must("A", "", "store", "set", "--shared")
	e.must("B", "", "consult", "--context", "fetch pages")
	assert.FileExists(t, filepath.Join(peer, "ucs", "state", "journal.jsonl"))
}
