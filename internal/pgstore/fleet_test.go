package pgstore_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// withUser is the store's URL for another database role (the test
// cluster trusts every local login).
func withUser(url, role string) string {
	return strings.Replace(url, "postgres://ucs@", "postgres://"+role+"@", 1)
}

// exec runs statements on the store as its superuser.
func execSQL(t *testing.T, url string, stmts ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer conn.Close(ctx)
	for _, q := range stmts {
		_, err := conn.Exec(ctx, q)
		require.NoError(t, err, q)
	}
}

// fleetRoles makes, for the store at url (its schema made), an agent's
// role that may use its tables (agent) and an operator's, a member of
// ucs_operator (op). Roles are the cluster's: their names carry the
// database's.
func fleetRoles(t *testing.T, url string) (agent, op string) {
	_, db, _ := strings.Cut(url, "@/")
	db, _, _ = strings.Cut(db, "?")
	agent, op = "fv_agent_"+db, "fv_op_"+db
	execSQL(t, url,
		`DO $$ BEGIN CREATE ROLE ucs_operator NOLOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
		"CREATE ROLE "+agent+" LOGIN",
		"CREATE ROLE "+op+" LOGIN IN ROLE ucs_operator",
		"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "+agent,
		"GRANT SELECT ON ALL TABLES IN SCHEMA public TO "+op)
	return agent, op
}

// fleetStore makes a store of three workspaces in fleet default: A and C
// the superuser's, B the agent role's; C private. Each reports the same
// two-step task, C with failures only (its evidence must reach no
// fleet's), and A records a methodology entry and a dead end.
func fleetStore(t *testing.T) (e *env, agent, op string) {
	e = newEnv(t)
	e.must("A", "", "init", "--model", "v4")
	agent, op = fleetRoles(t, e.url)
	ea := &env{t: t, url: withUser(e.url, agent), cache: filepath.Join(t.TempDir(), "agent"), vars: e.vars}
	ea.must("B", "", "init", "--model", "v4")
	e.must("C", "", "init")
	e.must("C", "", "store", "set", "--private")
	step := func(e *env, name, success string, i int) {
		e.must(name, `{"action": "read", "success": "neutral", "context": "deploy the billing service"}`, "report")
		e.must(name, "", "consult", "--context", "deploy the billing service") // advice, followed or not
		e.must(name, fmt.Sprintf(`{"action": "exec", "outcome": "deploy %d", "success": %q, "context": "deploy the billing service"}`, i, success), "report")
	}
	for i := range 4 {
		step(e, "A", "success", i)
	}
	step(ea, "B", "success", 0)
	step(ea, "B", "failure", 1)
	for i := range 3 {
		step(e, "C", "failure", i)
	}
	e.must("A", `{"type": "post_task", "text": "Deploy the billing service from a clean checkout.", "capabilities": ["exec"]}`, "reflect")
	e.must("A", `{"type": "dead_end", "topic": "deploying from a laptop", "why_closed": "the VPN drops", "capabilities": ["exec"]}`, "reflect")
	return e, agent, op
}

// owners is an answer with each workspace's owner replaced by "ROLE",
// and the owners found: the schema records owners from version 2 on
// (row-level security), and their names are the cluster's.
func owners(out string) (string, []string) {
	re := regexp.MustCompile(`"owner":(null|"[^"]*")`)
	var found []string
	for _, m := range re.FindAllStringSubmatch(out, -1) {
		found = append(found, m[1])
	}
	return re.ReplaceAllString(out, `"owner":"ROLE"`), found
}

// TestFleetShow: show --fleet over a store of three workspaces, one
// private. The operator's answer (golden) lists all three with what each
// holds, and the fleet's transitions with their provenance: A's and B's
// evidence, never the private C's. An agent's role sees its own workspace
// and its fleet's shared ones, not C; a private workspace sees itself
// only. Nothing is committed or journaled, and check and verify pass.
func TestFleetShow(t *testing.T) {
	e, agent, op := fleetStore(t)
	seqs := func() string {
		return fmt.Sprint(rowCount(t, e.url, `SELECT sum(version) FROM ucs_workspaces`), rowCount(t, e.url, `SELECT count(*) FROM ucs_journal`))
	}
	before := seqs()

	eo := &env{t: t, url: withUser(e.url, op), cache: filepath.Join(t.TempDir(), "op"), vars: e.vars}
	out, found := owners(eo.must("default", "", "show", "--fleet"))
	golden := filepath.Join("testdata", "fleet_show.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(golden, pyjson.Indent(mustParse(t, out)), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(pyjson.Indent(mustParse(t, out))))
	require.Len(t, found, 3)
	for i, who := range []string{"ucs", agent, "ucs"} { // A, B, C
		assert.Contains(t, []string{"null", `"` + who + `"`}, found[i], "the owner of the %d-th workspace", i+1)
	}
	// A row of a name ucs never gives (written behind its back) is not
	// mirrored, let alone outside the cache.
	execSQL(t, e.url, `INSERT INTO ucs_workspaces (name, version) VALUES ('../../escaped', 1)`)
	out2, _ := owners(eo.must("default", "", "show", "--fleet"))
	assert.Equal(t, string(want), string(pyjson.Indent(mustParse(t, out2))))
	assert.NoDirExists(t, filepath.Join(eo.cache, "..", "escaped"))
	execSQL(t, e.url, `DELETE FROM ucs_workspaces WHERE name = '../../escaped'`)

	// The superuser is an operator too, whatever workspace it names.
	su, _ := owners(e.must("B", "", "show", "--fleet"))
	assert.Equal(t, string(want), string(pyjson.Indent(mustParse(t, su))))

	// B's role: its own and the fleet's shared A; never C.
	ea := &env{t: t, url: withUser(e.url, agent), cache: filepath.Join(t.TempDir(), "agent"), vars: e.vars}
	out = ea.must("B", "", "show", "--fleet")
	assert.Equal(t, `["A","B"]`, gjson.Get(out, "workspaces.#.name").Raw, out)
	assert.NotContains(t, out, `"C"`)
	table := ea.must("B", "", "show", "--fleet", "--format", "table")
	assert.Contains(t, table, "read → exec")
	assert.Contains(t, table, "A 4/4, B 1/2")
	assert.NotRegexp(t, `(?m)^C `, table)
	assert.Equal(t, before, seqs(), "the fleet view commits nothing")

	// A workspace that goes private leaves the agent's fleet view, and its
	// mirror the agent's cache, on the agent's next view.
	require.DirExists(t, filepath.Join(ea.cache, "fleet", "A"))
	e.must("A", "", "store", "set", "--private")
	out = ea.must("B", "", "show", "--fleet")
	assert.Equal(t, `["B"]`, gjson.Get(out, "workspaces.#.name").Raw, out)
	assert.Equal(t, `["B"]`, gjson.Get(out, "fleet_transitions.0.evidence.#.workspace").Raw, "B's own evidence only: %s", out)
	assert.NoDirExists(t, filepath.Join(ea.cache, "fleet", "A"))
	e.must("A", "", "store", "set", "--shared")

	// A private workspace of an agent's role is a fleet of one to it.
	ea.must("D", "", "init")
	ea.must("D", "", "store", "set", "--private")
	out = ea.must("D", "", "show", "--fleet")
	assert.Equal(t, `["D"]`, gjson.Get(out, "workspaces.#.name").Raw, out)

	e.must("A", "", "check")
	e.must("A", "", "verify")
}

func mustParse(t *testing.T, s string) pyjson.Value {
	t.Helper()
	v, err := pyjson.Parse([]byte(s))
	require.NoError(t, err, s)
	return v
}

// The MCP server on a store (ucs-mcp --store) answers show and view with
// fleet as the command line does: the operator's role lists every
// workspace; through a directory's server it is no_fleet.
func TestFleetThroughMCP(t *testing.T) {
	e, _, op := fleetStore(t)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), append(e.vars, "UCS_TEST_AS_MCP="+withUser(e.url, op), "UCS_WORKSPACE_NAME=default",
		"UCS_STORE_CACHE="+t.TempDir())...)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	require.NoError(t, err)
	defer cs.Close()
	call := func(name string, args map[string]any) string {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err)
		require.Len(t, res.Content, 1)
		text := res.Content[0].(*mcp.TextContent).Text // the answer as ucs writes it
		require.False(t, res.IsError, "%s", text)
		return text
	}
	out := call("show", map[string]any{"fleet": true})
	assert.Equal(t, `["A","B","C"]`, gjson.Get(out, "workspaces.#.name").Raw, out)
	want, err := os.ReadFile(filepath.Join("testdata", "fleet_show.golden"))
	require.NoError(t, err)
	got, _ := owners(out)
	assert.Equal(t, string(want), string(pyjson.Indent(mustParse(t, got))), "the command line's answer")
	out = call("view", map[string]any{"fleet": true})
	assert.Equal(t, int64(3), gjson.Get(out, "shown.workspaces").Int(), out)
	assert.Contains(t, gjson.Get(out, "html").String(), `"name":"C"`)
}
