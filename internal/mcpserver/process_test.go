package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The tests of this file run the server as a process (this test binary as
// ucs-mcp, see TestMain) and talk to it over its stdio with the SDK's
// CommandTransport, beside ucs processes on the same workspace.

// startServer starts a ucs-mcp process on ws (with flags: --operator)
// and connects to it.
func startServer(t *testing.T, ws string, flags ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"--workspace", ws}, flags...)...)
	cmd.Env = append(os.Environ(), roleEnv+"=ucs-mcp")
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs, cmd
}

// ucs runs a ucs process on ws and returns its stdout and exit code.
func ucs(t *testing.T, ws, stdin string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"--workspace", ws, "--compact"}, args...)...)
	cmd.Env = append(os.Environ(), roleEnv+"=ucs")
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return strings.TrimSpace(out.String()), code
}

// callProc calls a tool of a server process; its answer, or the tool error.
func callProc(cs *mcp.ClientSession, name, args string) (pyjson.Value, bool, error) {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		return pyjson.Value{}, false, err
	}
	v, err := pyjson.Parse([]byte(res.Content[0].(*mcp.TextContent).Text))
	return v, res.IsError, err
}

// TestAgentSession: a whole agent session against the server process:
// session_start, a goal, consult, execute_action ten times (two φ-cycles)
// with successes and failures, reflect, flush, goal_status; then ucs
// verify proves the workspace's history.
func TestAgentSession(t *testing.T) {
	ws := newDir(t)
	cs, _ := startServer(t, ws)
	must := func(name, args string) pyjson.Value {
		t.Helper()
		v, isErr, err := callProc(cs, name, args)
		require.NoError(t, err)
		require.False(t, isErr, "%s: %s", name, pyjson.AppendCompact(nil, v))
		return v
	}
	_, isErr, err := callProc(cs, "session_start", `{}`)
	require.NoError(t, err)
	require.True(t, isErr, "not initialized yet")
	_, code := ucs(t, ws, "", "init") // the operator's: no tool of the agent's
	require.Equal(t, 0, code)
	must("session_start", `{}`)
	g := must("goal_register", `{"content": "make the tests pass", "count": 3, "retries": 5}`)
	goal, _ := g.Get("goal")
	id := goal.StrOf("id")
	must("consult", `{"context": "run the test suite and fix failures"}`)
	phi := 0
	for i := range 10 {
		cmd := `["true"]`
		if i%3 == 2 {
			cmd = `["false"]`
		}
		v := must("execute_action", fmt.Sprintf(`{"action": "exec", "command": %s, "goal_id": %q, "context": "run the test suite"}`, cmd, id))
		rec, _ := v.Get("recorded")
		assert.True(t, rec.Bool(), "%s", pyjson.AppendCompact(nil, v))
		if i%3 == 2 {
			assert.Equal(t, "failure", v.StrOf("outcome"))
		}
	}
	st := must("status", `{}`)
	total, _ := st.Get("reports_total")
	n, _ := total.Int()
	assert.Equal(t, int64(10), n)
	phi = 10 / 5
	assert.Equal(t, 2, phi)
	must("reflect", `{"type": "post_task", "text": "Run the suite before fixing: failures cluster.", "capabilities": ["exec"], "keywords": ["tests"]}`)
	must("flush", `{}`)
	gs := must("goal_status", fmt.Sprintf(`{"id": %q}`, id))
	goal, _ = gs.Get("goal")
	assert.Equal(t, "completed", goal.StrOf("state"))
	out, code := ucs(t, ws, "", "verify")
	assert.Equal(t, 0, code, out)
	out, code = ucs(t, ws, "", "check")
	assert.Equal(t, 0, code, out)
}

// TestConcurrentServersAndCLI: two servers and eight ucs processes report
// on one workspace at once, 200 reports in all: every one is counted, no
// call fails (none waits past the lock timeout), and check finds nothing.
func TestConcurrentServersAndCLI(t *testing.T) {
	ws := newDir(t)
	_, code := ucs(t, ws, "", "init")
	require.Equal(t, 0, code)
	var wg sync.WaitGroup
	errs := make(chan string, 200)
	for s := range 2 {
		cs, _ := startServer(t, ws)
		wg.Go(func() {
			for i := range 40 {
				v, isErr, err := callProc(cs, "report", fmt.Sprintf(`{"action": "read", "success": "success", "request_id": "s%d-%d"}`, s, i))
				if err != nil || isErr {
					errs <- fmt.Sprintf("server %d: %v %s", s, err, pyjson.AppendCompact(nil, v))
				}
			}
		})
	}
	for p := range 8 {
		wg.Go(func() {
			for i := range 15 {
				out, code := ucs(t, ws, fmt.Sprintf(`{"action": "web_fetch", "success": "failure", "request_id": "c%d-%d"}`, p, i), "report")
				if code != 0 {
					errs <- fmt.Sprintf("ucs %d: exit %d %s", p, code, out)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	out, code := ucs(t, ws, "", "status")
	require.Equal(t, 0, code)
	v, err := pyjson.Parse([]byte(out))
	require.NoError(t, err)
	total, _ := v.Get("reports_total")
	n, _ := total.Int()
	assert.Equal(t, int64(200), n)
	out, code = ucs(t, ws, "", "check")
	assert.Equal(t, 0, code, out)
}

// TestKilledServer: a server killed (SIGKILL) while it answers calls
// leaves a workspace the next call recovers: check is clean after it,
// verify proves the history, and every report answered was kept.
func TestKilledServer(t *testing.T) {
	ws := newDir(t)
	_, code := ucs(t, ws, "", "init")
	require.Equal(t, 0, code)
	answered := 0
	for round := range 3 {
		cs, cmd := startServer(t, ws)
		done := make(chan int)
		go func() {
			n := 0
			for i := 0; ; i++ {
				_, isErr, err := callProc(cs, "report", fmt.Sprintf(`{"action": "read", "success": "success", "request_id": "k%d-%d"}`, round, i))
				if err != nil || isErr {
					break
				}
				n++
			}
			done <- n
		}()
		time.Sleep(time.Duration(30+20*round) * time.Millisecond)
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		answered += <-done
	}
	out, code := ucs(t, ws, `{"action": "read", "success": "success"}`, "report")
	require.Equal(t, 0, code, out)
	out, code = ucs(t, ws, "", "check")
	assert.Equal(t, 0, code, out)
	out, code = ucs(t, ws, "", "verify")
	assert.Equal(t, 0, code, out)
	out, _ = ucs(t, ws, "", "status")
	v, err := pyjson.Parse([]byte(out))
	require.NoError(t, err)
	total, _ := v.Get("reports_total")
	n, _ := total.Int()
	t.Logf("%d reports answered before the kills, %d kept", answered, n-1)
	assert.GreaterOrEqual(t, n, int64(answered+1), "every answered report is kept")
	assert.LessOrEqual(t, n, int64(answered+4), "at most the one cut short per server")
}
