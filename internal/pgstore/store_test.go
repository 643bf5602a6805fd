package pgstore_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
	"github.com/unified-cognitive-substrate/ucs/internal/cli"
	"github.com/unified-cognitive-substrate/ucs/internal/mcpserver"
	"github.com/unified-cognitive-substrate/ucs/internal/pgstore"
	"github.com/unified-cognitive-substrate/ucs/internal/store"
)

// The directory backend's guarantees, repeated on PostgreSQL, through the
// command line: the test binary runs as ucs when UCS_TEST_AS_UCS is set,
// so every call is a process of its own, as an agent makes them.

func TestMain(m *testing.M) {
	// Every call of the tests checks its write log against scans of the
	// mirror: what the log says a call wrote is what the files show.
	pgstore.CheckWrites(true)
	if os.Getenv("UCS_TEST_AS_UCS") == "1" {
		os.Exit(cli.Run(os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv,
			Store: pgstore.Backend{}}))
	}
	if url := os.Getenv("UCS_TEST_AS_MCP"); url != "" { // cmd/ucs-mcp on a store
		opts, err := cli.BridgeOptions("", os.Getenv)
		if err != nil {
			os.Exit(2)
		}
		ctx := context.Background()
		run := pgstore.Runner(ctx, url, store.Named(os.Getenv("UCS_WORKSPACE_NAME"), os.Getenv, opts.LockTimeout))
		if err := mcpserver.NewWith(opts, run).Run(ctx, &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	pgtest.Stop()
	os.Exit(code)
}

// env is a store's environment for ucs processes.
type env struct {
	t     *testing.T
	url   string
	cache string
	vars  []string
}

func newEnv(t *testing.T) *env {
	return &env{t: t, url: pgtest.Database(t), cache: t.TempDir(),
		vars: []string{"UCS_NOW=2026-11-24T12:00:00Z", "UCS_LOCK_TIMEOUT=20s"}}
}

// ucs runs one ucs process on the store as workspace name.
func (e *env) ucs(name, stdin string, args ...string) (string, int) {
	e.t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"--store", e.url, "--workspace-name", name, "--compact"}, args...)...)
	cmd.Env = append(os.Environ(), append(e.vars, "UCS_TEST_AS_UCS=1", "UCS_STORE_CACHE="+e.cache)...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatalf("ucs %v: %v", args, err)
	}
	return out.String(), code
}

// must runs ucs and requires exit 0.
func (e *env) must(name, stdin string, args ...string) string {
	e.t.Helper()
	out, code := e.ucs(name, stdin, args...)
	require.Equal(e.t, 0, code, "ucs %v: %s", args, out)
	return out
}

// dirUCS runs ucs on a directory workspace.
func dirUCS(t *testing.T, ws, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"--workspace", ws, "--compact"}, args...)...)
	// The agent of workspace "a" of the store.
	cmd.Env = append(os.Environ(), "UCS_TEST_AS_UCS=1", "UCS_NOW=2026-11-24T12:00:00Z", "UCS_AGENT_ID=a")
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	require.NoError(t, err, "ucs %v: %s", args, out)
	return string(out)
}

func report(action, success string, i int) string {
	return fmt.Sprintf(`{"action": %q, "outcome": "step %d", "success": %q, "context": "research competitor pricing"}`, action, i, success)
}

// The same calls give the same answers on a directory and in the store.
func TestSameAnswersAsADirectory(t *testing.T) { sameAnswers(t, newEnv(t)) }

// sameAnswers runs the same calls on a directory and in e's store.
func sameAnswers(t *testing.T, e *env) {
	ws := filepath.Join(t.TempDir(), "ws")
	calls := []struct{ stdin, args string }{
		{"", "init"},
		{"", "resume"},
		{"", "consult --context research-competitor-pricing"},
		{report("web_fetch", "success", 1), "report"},
		{report("read", "failure", 2), "report"},
		{`{"type": "post_task", "text": "Fetch whole pages: snippets truncate price tables.", "capabilities": ["web_fetch"]}`, "reflect"},
		{`{"type": "dead_end", "topic": "scraping the vendor portal", "why_closed": "captcha", "capabilities": ["browser"]}`, "reflect"},
		{"", "consult --context research-competitor-pricing"},
		{"", "status"},
		{"", "observations"},
		{"", "synthesize"},
		{"", "export"},
		{`{"format": "ucs_cognitive_export_v2", "agent_id": "other", "methodology": [{"date": "2026-11-20", "summary": "Read the brief first.", "capabilities": ["read"], "id": "m1"}]}`, "import"},
		{"", "consult --context read-the-brief"},
		{"", "log --limit 3"},
		{"", "check"},
		{"", "verify"},
	}
	for _, c := range calls {
		args := strings.Fields(c.args)
		for i, a := range args {
			args[i] = strings.ReplaceAll(a, "-", " ")
			if strings.HasPrefix(a, "--") {
				args[i] = a
			}
		}
		want := dirUCS(t, ws, c.stdin, args...)
		got := e.must("a", c.stdin, args...)
		assert.Equal(t, canonical(want, ws), canonical(got, filepath.Join(e.cache, "ws", "a")), c.args)
	}
}

// canonical replaces the workspace's directory in an answer.
func canonical(s, dir string) string { return strings.ReplaceAll(s, dir, "WS") }

// 16 processes × 50 reports on one workspace at once: all counted, none
// failed, check clean, verify passes.
func TestConcurrentReports(t *testing.T) {
	if testing.Short() {
		t.Skip("800 processes")
	}
	concurrentReports(t, newEnv(t))
}

// concurrentReports runs 16 processes × 50 reports in e's store.
func concurrentReports(t *testing.T, e *env) {
	e.must("a", "", "init")
	var wg sync.WaitGroup
	failed := make(chan string, 800)
	for p := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				if out, code := e.ucs("a", report("web_fetch", "success", p*100+i), "report"); code != 0 {
					failed <- out
				}
			}
		}()
	}
	wg.Wait()
	close(failed)
	for out := range failed {
		t.Errorf("a report failed: %s", out)
	}
	status := e.must("a", "", "status")
	assert.Equal(t, int64(800), gjson.Get(status, "reports_total").Int(), status)
	assert.Equal(t, "true", gjson.Get(e.must("a", "", "check"), "ok").Raw)
	e.must("a", "", "verify")
	assert.Equal(t, int64(801), rowCount(t, e.url, "SELECT count(*) FROM ucs_journal WHERE workspace = 'a'"))
}

func rowCount(t *testing.T, url, q string, args ...any) int64 {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var n int64
	require.NoError(t, conn.QueryRow(ctx, q, args...).Scan(&n))
	return n
}

// A process killed at a random moment of each of 100 reports: the next
// call succeeds, check is clean, and t counts exactly the committed
// reports (the journal's report events in the store).
func TestKilledReports(t *testing.T) {
	e := newEnv(t)
	e.must("a", "", "init")
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 100 {
		cmd := exec.Command(os.Args[0], "--store", e.url, "--workspace-name", "a", "report")
		cmd.Env = append(os.Environ(), append(e.vars, "UCS_TEST_AS_UCS=1", "UCS_STORE_CACHE="+e.cache)...)
		cmd.Stdin = strings.NewReader(report("web_fetch", "success", i))
		require.NoError(t, cmd.Start())
		time.Sleep(time.Duration(rng.IntN(40000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
	}
	status := e.must("a", "", "status")
	committed := rowCount(t, e.url, `SELECT count(*) FROM ucs_journal WHERE workspace = 'a' AND convert_from(line, 'UTF8')::jsonb->>'op' = 'report'`)
	assert.Equal(t, committed, gjson.Get(status, "t").Int(), "t counts the committed reports: %s", status)
	assert.Equal(t, committed, gjson.Get(status, "reports_total").Int())
	assert.Equal(t, "true", gjson.Get(e.must("a", "", "check"), "ok").Raw)
	e.must("a", "", "verify")
	t.Logf("%d of 100 killed reports committed", committed)
}

// A call retried with the same request_id is applied once.
func TestRequestIDOnce(t *testing.T) {
	e := newEnv(t)
	e.must("a", "", "init")
	in := `{"action": "read", "success": "success", "request_id": "r-1"}`
	first := e.must("a", in, "report")
	again := e.must("a", in, "report")
	assert.Equal(t, "true", gjson.Get(again, "replayed").Raw, again)
	assert.Equal(t, gjson.Get(first, "cursor").String(), gjson.Get(again, "cursor").String())
	assert.Equal(t, int64(1), gjson.Get(e.must("a", "", "status"), "reports_total").Int())
}

// A row changed in the store behind ucs's back is found by verify, which
// names the event.
func TestVerifyFindsATamperedRow(t *testing.T) {
	e := newEnv(t)
	e.must("a", "", "init")
	for i := range 3 {
		e.must("a", report("web_fetch", "success", i), "report")
	}
	e.must("a", "", "verify")
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, e.url)
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `UPDATE ucs_journal SET line = convert_to(replace(convert_from(line, 'UTF8'), 'step 1', 'step 9'), 'UTF8')
		WHERE workspace = 'a' AND seq = 3`)
	require.NoError(t, err)
	out, code := e.ucs("a", "", "verify")
	assert.NotEqual(t, 0, code, out)
	assert.Equal(t, "verify_failed", gjson.Get(out, "code").String(), out)
	assert.Equal(t, int64(3), gjson.Get(out, "event").Int(), "the event is named: %s", out)
}

// push then pull gives back the workspace's files, byte for byte, and
// verify passes on both sides.
func TestPushPull(t *testing.T) {
	e := newEnv(t)
	ws := filepath.Join(t.TempDir(), "ws")
	dirUCS(t, ws, "", "init")
	for i := range 5 {
		dirUCS(t, ws, report("web_fetch", "success", i), "report")
	}
	dirUCS(t, ws, `{"type": "post_task", "text": "Fetch whole pages.", "capabilities": ["web_fetch"]}`, "reflect")
	dirUCS(t, ws, "", "consult", "--context", "pricing")

	cmd := exec.Command(os.Args[0], "--workspace", ws, "--workspace-name", "pushed", "store", "push", "--to", e.url)
	cmd.Env = append(os.Environ(), "UCS_TEST_AS_UCS=1", "UCS_STORE_CACHE="+e.cache)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	e.must("pushed", "", "verify")

	back := filepath.Join(t.TempDir(), "back")
	e.must("pushed", "", "store", "pull", "--to", back)
	dirUCS(t, back, "", "verify")
	assert.Equal(t, storedFiles(t, ws), storedFiles(t, back))
	// The store's copy goes on from there.
	e.must("pushed", report("read", "success", 9), "report")
	e.must("pushed", "", "verify")
}

// storedFiles reads a workspace's files that a store keeps (not its
// derived indexes, locks or snapshots, nor the previous commit's state
// kept for a local repair).
func storedFiles(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(dir, func(name string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(dir, name)
		rel = filepath.ToSlash(rel)
		if d.IsDir() || strings.Contains(rel, "index-v1") || strings.Contains(rel, "terms-v1") ||
			strings.HasSuffix(rel, "/lock") || strings.Contains(rel, "/snapshots/") ||
			strings.HasSuffix(rel, ".idx") || strings.HasSuffix(rel, ".sum") || strings.HasSuffix(rel, ".prev") {
			return nil
		}
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		out[rel] = string(b)
		return nil
	})
	return out
}

// Two agents on one store: a dead end A records reaches B's consult in a
// matching context, naming A; B's own equal entry outranks A's; a private
// workspace's entries never reach B.
func TestFleetKnowledge(t *testing.T) {
	e := newEnv(t)
	e.must("A", "", "init")
	e.must("B", "", "init")
	deadEnd := `{"type": "dead_end", "topic": "scraping the vendor billing portal", "why_closed": "a captcha on every page of the billing portal", "capabilities": ["browser"]}`
	e.must("A", deadEnd, "reflect")
	ctx := "scrape the vendor billing portal for invoices"
	out := e.must("B", "", "consult", "--context", ctx)
	dead := gjson.Get(out, "dead_ends")
	require.Equal(t, int64(1), dead.Get("#").Int(), out)
	assert.Equal(t, "A", dead.Get("0.agent").String())
	assert.Equal(t, 0.8, dead.Get("0.rank.fleet_weight").Float())
	// The observation A's reflection made is B's to weigh too.
	obs := gjson.Get(out, "observations.hits")
	require.Equal(t, int64(1), obs.Get("#").Int(), out)
	assert.Equal(t, "A", obs.Get("0.agent").String())
	assert.Equal(t, 0.8, obs.Get("0.rank.fleet_weight").Float())

	// B records the same: its own ranks first.
	e.must("B", deadEnd, "reflect")
	out = e.must("B", "", "consult", "--context", ctx)
	assert.Equal(t, "B", gjson.Get(out, "dead_ends.0.agent").String(), out)
	assert.Equal(t, "B", gjson.Get(out, "observations.hits.0.agent").String(), "B's own observation first, A's equal one left out: %s", out)
	assert.Equal(t, int64(1), gjson.Get(out, "observations.hits.#").Int())
	assert.Greater(t, gjson.Get(out, "dead_ends.0.rank.score").Float(), gjson.Get(out, "left_out.dead_ends").Float()*0)

	// A private workspace's entries never reach B.
	e.must("C", "", "init")
	e.must("C", "", "store", "set", "--private")
	e.must("C", `{"type": "post_task", "text": "The vendor billing portal exports invoices as CSV from its admin page.", "capabilities": ["browser"]}`, "reflect")
	out = e.must("B", "", "consult", "--context", ctx)
	assert.NotContains(t, out, `"agent":"C"`, out)
	assert.NotContains(t, out, "CSV", out)
	// And a private workspace sees no one's.
	out = e.must("C", "", "consult", "--context", ctx)
	assert.NotContains(t, out, `"agent":"A"`, out)
}

// A new agent may start from the fleet's learned transitions: its model
// begins where the fleet's averaged evidence (counted half) puts it, and
// keeps its own posterior; verify replays the prior the journal recorded.
// The pooled prior is v3's and v4's (v5 warns: it ranks with the fleet's
// evidence at every consult instead).
func TestFleetPrior(t *testing.T) {
	e := newEnv(t)
	e.must("A", "", "init", "--model", "v4")
	for i := range 15 {
		e.must("A", `{"action": "read", "success": "neutral", "context": "deploy the billing service"}`, "report")
		e.must("A", fmt.Sprintf(`{"action": "exec", "outcome": "deployed %d", "success": "success", "context": "deploy the billing service"}`, i), "report")
	}
	out := e.must("B", "", "init", "--fleet-prior", "--model", "v4")
	assert.Equal(t, `["A"]`, gjson.Get(out, "fleet_prior.from").Raw, out)
	assert.Greater(t, gjson.Get(out, "fleet_prior.transitions").Int(), int64(0), out)
	e.must("C", "", "init", "--model", "v4")
	out = e.must("D", "", "init", "--fleet-prior")
	assert.Contains(t, out, "ranks with its fleet's at every consult instead", out)

	// read → exec is no edge of the manifest: A discovered it.
	suggests := func(name string) (string, float64) {
		e.must(name, `{"action": "read", "success": "neutral", "context": "deploy the billing service"}`, "report")
		out := e.must(name, "", "consult", "--context", "deploy the billing service", "--greedy")
		top := gjson.Get(out, "suggested_paths.0")
		return top.Get("to").String(), top.Get("p_success").Float()
	}
	bTop, bP := suggests("B")
	cTop, cP := suggests("C")
	assert.Equal(t, "exec", bTop, "B starts from the fleet's experience")
	assert.Greater(t, bP, 0.6)
	assert.NotEqual(t, "exec", cTop, "C, without the prior, knows nothing of it")
	t.Logf("after read, deploying: B (fleet prior) suggests %s at p=%.3f; C (none) %s at p=%.3f", bTop, bP, cTop, cP)
	e.must("B", "", "verify")
	// B's own outcomes are B's: A's model is unchanged by them.
	before := e.must("A", "", "status")
	e.must("B", `{"action": "exec", "success": "failure", "context": "deploy the billing service"}`, "report")
	assert.Equal(t, gjson.Get(before, "reports_total").Int(), gjson.Get(e.must("A", "", "status"), "reports_total").Int())
}

// Calls that write files anew rather than append (init --force, which
// moves the old state into a backup and starts a new journal; a migration
// with its backup) are stored whole: a mirror rebuilt from the store
// verifies and checks clean. (Regression: a file written anew whose last
// bytes matched the old file's was once taken for an append of nothing.)
func TestRewrittenFiles(t *testing.T) {
	e := newEnv(t)
	e.must("a", "", "init")
	e.must("a", report("read", "success", 1), "report")
	e.vars = append(e.vars, "UCS_NOW=2026-11-24T12:00:07Z") // same length, another time
	e.must("a", "", "init", "--force")
	e.must("a", "", "verify")
	assert.Equal(t, "true", gjson.Get(e.must("a", "", "check"), "ok").Raw)
	e.must("a", report("read", "success", 2), "report")
	e.must("a", "", "migrate", "--model", "v3")
	e.must("a", "", "verify")
	// Another machine's mirror (another cache) holds the same.
	e.cache = t.TempDir()
	e.must("a", "", "verify")
	assert.Equal(t, "true", gjson.Get(e.must("a", "", "check"), "ok").Raw)
	assert.Equal(t, int64(1), gjson.Get(e.must("a", "", "status"), "reports_total").Int())
}

// An observation ucs exec queued on a machine (--async) is learned by that
// machine's next changing call, even when its mirror was rebuilt meanwhile.
func TestQueuedObservationSurvivesARebuild(t *testing.T) {
	e := newEnv(t)
	e.must("a", "", "init")
	_, code := e.ucs("a", "", "exec", "--action", "exec", "--async", "--", "false")
	assert.Equal(t, 1, code, "the tool's exit code")
	// Another machine moves the store on: this mirror is behind, and its
	// version file is lost (as after a reboot): it is rebuilt.
	other := *e
	other.cache = t.TempDir()
	other.must("a", report("read", "success", 1), "report")
	require.NoError(t, os.Remove(filepath.Join(e.cache, "ws", "a.version")))
	e.must("a", report("read", "success", 2), "report")
	assert.Equal(t, int64(3), gjson.Get(e.must("a", "", "status"), "reports_total").Int(), "the queued outcome was learned")
	e.must("a", "", "verify")
}

// An MCP server on the store (ucs-mcp --store) serves a workspace as the
// command line does: two servers and CLI processes on one workspace, 150
// reports in all, every one counted; each tool call is one transaction.
func TestMCPServersOnTheStore(t *testing.T) {
	e := newEnv(t)
	e.must("a", "", "init")
	server := func() *mcp.ClientSession {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), append(e.vars, "UCS_TEST_AS_MCP="+e.url, "UCS_WORKSPACE_NAME=a",
			"UCS_STORE_CACHE="+t.TempDir())...) // a machine of its own
		cmd.Stderr = os.Stderr
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
			Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
		require.NoError(t, err)
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	var wg sync.WaitGroup
	failed := make(chan string, 150)
	for range 2 {
		cs := server()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "report",
					Arguments: map[string]any{"action": "web_fetch", "success": "success", "context": fmt.Sprintf("step %d", i)}})
				if err != nil || res.IsError {
					failed <- fmt.Sprint(err, res)
				}
			}
		}()
	}
	for p := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				if out, code := e.ucs("a", report("read", "success", 100*p+i), "report"); code != 0 {
					failed <- out
				}
			}
		}()
	}
	wg.Wait()
	close(failed)
	for f := range failed {
		t.Errorf("a report failed: %s", f)
	}
	assert.Equal(t, int64(150), gjson.Get(e.must("a", "", "status"), "reports_total").Int())
	assert.Equal(t, "true", gjson.Get(e.must("a", "", "check"), "ok").Raw)
	e.must("a", "", "verify")
}

// A peer's row of a name ucs never gives, written behind its back, is not
// mirrored for a consult, let alone outside the cache ("../../x" was
// mirrored at cache/peers/../../x).
func TestPeerNameOutsideTheCache(t *testing.T) {
	e := newEnv(t)
	e.must("A", "", "init")
	e.must("B", "", "init")
	execSQL(t, e.url, `INSERT INTO ucs_workspaces (name, version) VALUES ('../../escaped', 1)`)
	out := e.must("B", "", "consult", "--context", "scrape the vendor billing portal")
	assert.NotContains(t, out, "escaped")
	assert.NoDirExists(t, filepath.Join(e.cache, "..", "escaped"))
	assert.NoDirExists(t, filepath.Join(e.cache, "peers", "..", "..", "escaped"))
	assert.DirExists(t, filepath.Join(e.cache, "peers", "A"), "the fleet's other workspaces are still mirrored")
}
