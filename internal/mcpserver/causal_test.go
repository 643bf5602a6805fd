package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestPendingCausalContext: within a session, the last consult's
// advisory_id is journaled with the next report and the next
// execute_action that name none, once; a retry of a report sends the same
// input, so it is replayed, not refused as a conflict.
func TestPendingCausalContext(t *testing.T) {
	ws := newDir(t)
	cs := connect(t, ws)
	call(t, cs, "init", `{}`)
	consult := func() string {
		out, isErr := call(t, cs, "consult", `{"context": "research competitor pricing"}`)
		require.False(t, isErr, out)
		v, _ := pyjson.Parse([]byte(out))
		return v.StrOf("advisory_id")
	}
	adv := consult()
	require.NotEmpty(t, adv)
	out, isErr := call(t, cs, "report", `{"action": "web_fetch", "success": "success", "request_id": "a-1"}`)
	require.False(t, isErr, out)
	assert.Contains(t, out, `"advisory_id":"`+adv+`"`, "the answer's learning names the advice")
	assert.Equal(t, adv, lastInput(t, ws, "report", "advisory_id"), "journaled as if sent")

	// Used once: the next report is not attributed by the server.
	call(t, cs, "report", `{"action": "read", "success": "success", "request_id": "a-2"}`)
	assert.Equal(t, "", lastInput(t, ws, "report", "advisory_id"))
	// A retry of the first report is the same input: replayed.
	out, _ = call(t, cs, "report", `{"action": "web_fetch", "success": "success", "request_id": "a-1"}`)
	assert.Contains(t, out, `"replayed":true`)

	// An advisory the agent names wins.
	adv2 := consult()
	call(t, cs, "report", `{"action": "read", "success": "success", "advisory_id": "mine"}`)
	assert.Equal(t, "mine", lastInput(t, ws, "report", "advisory_id"))
	// ... and the pending one goes to the next execute_action.
	out, isErr = call(t, cs, "execute_action", `{"action": "read", "command": ["true"]}`)
	require.False(t, isErr, out)
	assert.Equal(t, adv2, lastInput(t, ws, "report", "advisory_id"))
}

// lastInput is a member of the input of the journal's last event of op.
func lastInput(t *testing.T, ws, op, key string) string {
	data, err := os.ReadFile(filepath.Join(ws, "ucs", "state", "journal.jsonl"))
	require.NoError(t, err)
	var found string
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		ev, err := pyjson.Parse([]byte(line))
		require.NoError(t, err)
		if ev.StrOf("op") == op {
			in, _ := ev.Get("input")
			found = in.StrOf(key)
		}
	}
	return found
}

// TestExecuteAction: a tool run through the server: its exit code, output
// and outcome in the answer, learned like ucs exec's; a refused capability
// does not run and is a tool error.
func TestExecuteAction(t *testing.T) {
	ws := newDir(t)
	cs := connect(t, ws)
	manifest := (`{"capabilities": [
  {"name": "exec", "connects_to": ["exec", "writer"], "u": 0.5, "c": 0.2},
  {"name": "writer", "connects_to": ["exec"], "u": 0.5, "c": 0.2, "permissions": ["fs:write:./out"]}
], "semantic_map": {}}`)
	_, isErr := call(t, cs, "init", `{"capability_manifest": `+manifest+`}`)
	require.False(t, isErr)
	out, isErr := call(t, cs, "execute_action", `{"action": "exec", "command": ["sh", "-c", "echo hello; echo oops >&2; exit 3"], "context": "run the tests"}`)
	require.False(t, isErr, out)
	v, _ := pyjson.Parse([]byte(out))
	ec, _ := v.Get("exit_code")
	n, _ := ec.Int()
	assert.Equal(t, int64(3), n)
	assert.Equal(t, "failure", v.StrOf("outcome"))
	o, _ := v.Get("output")
	assert.Equal(t, "hello\n", o.StrOf("stdout"))
	assert.Equal(t, "oops\n", o.StrOf("stderr"))
	rec, _ := v.Get("recorded")
	assert.True(t, rec.Bool())

	out, _ = call(t, cs, "execute_action", `{"action": "exec", "command": ["sleep", "5"], "timeout_ms": 100}`)
	v, _ = pyjson.Parse([]byte(out))
	assert.Equal(t, "timeout", v.StrOf("outcome"), out)

	// A policy that does not grant what writer declares refuses it.
	_, isErr = call(t, cs, "policy_grant", `{"permission": "net:http:get"}`)
	require.False(t, isErr)
	marker := filepath.Join(t.TempDir(), "ran")
	out, isErr = call(t, cs, "execute_action", `{"action": "writer", "command": ["touch", "`+marker+`"]}`)
	assert.True(t, isErr, out)
	assert.Equal(t, "permission_denied", code(t, out))
	assert.NoFileExists(t, marker)
	assert.Equal(t, "policy block", lastOp(t, ws))
}

func lastOp(t *testing.T, ws string) string {
	data, err := os.ReadFile(filepath.Join(ws, "ucs", "state", "journal.jsonl"))
	require.NoError(t, err)
	ls := strings.Split(strings.TrimSpace(string(data)), "\n")
	ev, err := pyjson.Parse([]byte(ls[len(ls)-1]))
	require.NoError(t, err)
	return ev.StrOf("op")
}

// TestSessionTask: the task a consult names is the session's task: every
// report after it that names none is journaled as part of it, until a
// consult names another; a retry gets the task its first try got.
func TestSessionTask(t *testing.T) {
	ws := newDir(t)
	cs := connect(t, ws)
	call(t, cs, "init", `{}`)
	out, isErr := call(t, cs, "consult", `{"context": "research competitor pricing", "task": "t-1"}`)
	require.False(t, isErr, out)
	assert.Contains(t, out, `"task":"t-1"`)
	call(t, cs, "report", `{"action": "web_fetch", "success": "success", "request_id": "r-1"}`)
	assert.Equal(t, "t-1", lastInput(t, ws, "report", "task"))
	call(t, cs, "report", `{"action": "read", "success": "success"}`)
	assert.Equal(t, "t-1", lastInput(t, ws, "report", "task"), "the task outlives the advice")
	call(t, cs, "report", `{"action": "read", "success": "success", "task": "mine"}`)
	assert.Equal(t, "mine", lastInput(t, ws, "report", "task"), "a task given is kept")
	call(t, cs, "consult", `{"context": "deploy the billing service", "task": "t-2"}`)
	out, _ = call(t, cs, "report", `{"action": "web_fetch", "success": "success", "request_id": "r-1"}`)
	assert.Contains(t, out, `"replayed":true`, "a retry is the same input: t-1's")
}
