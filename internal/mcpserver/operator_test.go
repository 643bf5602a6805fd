package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// toolNames lists a server's tools.
func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// TestAgentCannotLiftItsPolicy: the agent's server (ucs-mcp's default)
// serves no operator's tool, so a capability its policy refuses stays
// refused: execute_action refused, policy_grant "*:*:*" is no tool (its
// call is an error and grants nothing), execute_action refused again.
func TestAgentCannotLiftItsPolicy(t *testing.T) {
	ws := newDir(t)
	manifest := filepath.Join(t.TempDir(), "tools.json")
	writeFile(t, manifest, `{"capabilities": [
  {"name": "exec", "connects_to": ["exec", "writer"], "u": 0.5, "c": 0.2},
  {"name": "writer", "connects_to": ["exec"], "u": 0.5, "c": 0.2, "permissions": ["fs:write:./out"]}
], "semantic_map": {}}`)
	_, code := ucs(t, ws, "", "init", "--manifest", manifest)
	require.Equal(t, 0, code)
	_, code = ucs(t, ws, "", "policy", "grant", "net:http:get")
	require.Equal(t, 0, code)

	cs, _ := startServer(t, ws)
	names := toolNames(t, cs)
	for _, sp := range bridge.Specs() {
		assert.Equal(t, !sp.Operator, slices.Contains(names, sp.ToolName()), "%s on the agent's surface", sp.Name)
	}
	for _, op := range []string{"policy_grant", "policy_revoke", "policy_set", "policy_clear", "init", "migrate", "import"} {
		assert.NotContains(t, names, op)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	run := `{"action": "writer", "command": ["touch", "` + marker + `"]}`
	v, isErr, err := callProc(cs, "execute_action", run)
	require.NoError(t, err)
	assert.True(t, isErr)
	assert.Equal(t, "permission_denied", v.StrOf("code"))

	for _, c := range []struct{ tool, args string }{
		{"policy_grant", `{"permission": "*:*:*"}`},
		{"policy_clear", `{}`},
		{"policy_set", `{"policy": {"version": 1, "grants": ["*:*:*"]}}`},
		{"init", `{"force": true}`},
	} {
		_, _, err := callProc(cs, c.tool, c.args)
		assert.Error(t, err, "%s is no tool of the agent's", c.tool)
	}
	v, isErr, err = callProc(cs, "execute_action", run)
	require.NoError(t, err)
	assert.True(t, isErr, "still refused")
	assert.Equal(t, "permission_denied", v.StrOf("code"))
	assert.NoFileExists(t, marker)
	out, _ := ucs(t, ws, "", "policy", "show")
	assert.NotContains(t, out, `*:*:*`)

	// The operator's own server serves them.
	op, _ := startServer(t, ws, "--operator")
	names = toolNames(t, op)
	for _, sp := range bridge.Specs() {
		assert.Contains(t, names, sp.ToolName())
	}
}

// TestVerdictSurface: a verdict that claims to be a person's weighs as
// one only through the operator's surface; through the agent's it weighs
// as the agent's own report, says so, records its surface in the journal,
// and verify replays it the same way.
func TestVerdictSurface(t *testing.T) {
	rate := func(flags ...string) (pyjson.Value, string) {
		ws := newDir(t)
		_, code := ucs(t, ws, "", "init")
		require.Equal(t, 0, code)
		_, code = ucs(t, ws, `{"action": "read", "success": "success", "context": "read the brief"}`, "report")
		require.Equal(t, 0, code)
		out, _ := ucs(t, ws, "", "log", "--op", "report")
		ev, err := pyjson.Parse([]byte(strings.Split(out, "\n")[0]))
		require.NoError(t, err)
		seq, _ := ev.Get("seq")
		n, _ := seq.Int()
		cs, _ := startServer(t, ws, flags...)
		v, isErr, err := callProc(cs, "report_outcome_manual", `{"seq": `+strconv.FormatInt(n, 10)+`, "success": "failure", "by": "operator"}`)
		require.NoError(t, err)
		require.False(t, isErr, "%s", pyjson.AppendCompact(nil, v))
		out, code = ucs(t, ws, "", "verify")
		assert.Equal(t, 0, code, out)
		return v, ws
	}
	agent, wsAgent := rate()
	person, _ := rate("--operator")
	assert.Equal(t, "agent", agent.StrOf("surface"))
	assert.Equal(t, "default", agent.StrOf("by"), "the agent's own verdict, whoever it names")
	_, ok := person.Get("surface")
	assert.False(t, ok)
	assert.Equal(t, "operator", person.StrOf("by"))
	la, _ := agent.Get("learning")
	lp, _ := person.Get("learning")
	assert.NotEqual(t, string(pyjson.AppendCompact(nil, la)), string(pyjson.AppendCompact(nil, lp)),
		"a person's verdict teaches more than the agent's")
	data, err := os.ReadFile(filepath.Join(wsAgent, "ucs", "state", "journal.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, string(data), `"surface":"agent"`)
}

// TestNoFilePaths: no tool takes a path, even on the operator's surface:
// the schemas leave out every path field, and a call naming one is
// refused without reading or writing anything; the policy and manifest
// come inline, and view answers its page.
func TestNoFilePaths(t *testing.T) {
	ws := newDir(t)
	cs := connect(t, ws) // the operator's surface: every tool
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	for _, tl := range res.Tools {
		data, err := json.Marshal(tl.InputSchema)
		require.NoError(t, err)
		for _, word := range []string{`"file"`, `"out"`, `"manifest"`} {
			assert.NotContains(t, string(data), word, tl.Name)
		}
	}
	secret := filepath.Join(t.TempDir(), "secret")
	writeFile(t, secret, "Xsecret content\n")
	out, isErr := call(t, cs, "init", `{"manifest": "`+secret+`"}`)
	assert.True(t, isErr)
	assert.Equal(t, "unknown_field", code(t, out))
	assert.NotContains(t, out, "Xsecret")
	assert.NoDirExists(t, ws, "nothing created")
	_, isErr = call(t, cs, "init", `{"capability_manifest": {"capabilities": [{"name": "exec", "connects_to": ["exec"], "u": 0.5, "c": 0.2}], "semantic_map": {}}}`)
	require.False(t, isErr)

	out, isErr = call(t, cs, "policy_set", `{"file": "`+secret+`"}`)
	assert.True(t, isErr)
	assert.Equal(t, "unknown_field", code(t, out))
	assert.NotContains(t, out, "Xsecret")
	out, _ = call(t, cs, "policy_show", `{}`)
	assert.NotContains(t, out, "grants\":[", "no policy set")
	out, isErr = call(t, cs, "policy_set", `{"policy": {"version": 1, "grants": ["net:http:get"]}}`)
	require.False(t, isErr, out)
	out, _ = call(t, cs, "policy_show", `{}`)
	assert.Contains(t, out, "net:http:get")

	page := filepath.Join(t.TempDir(), "page.html")
	out, isErr = call(t, cs, "view", `{"out": "`+page+`"}`)
	assert.True(t, isErr)
	assert.Equal(t, "unknown_field", code(t, out))
	assert.NoFileExists(t, page)
	out, isErr = call(t, cs, "view", `{"inline": false}`)
	require.False(t, isErr)
	v, err := pyjson.Parse([]byte(out))
	require.NoError(t, err)
	assert.Contains(t, v.StrOf("html"), "<html", "the page in the answer")
	_, wrote := v.Get("path")
	assert.False(t, wrote)
	cwd, _ := os.Getwd()
	assert.NoFileExists(t, filepath.Join(cwd, "ucs-dashboard.html"))
	outCLI, codeCLI := ucs(t, ws, "", "verify")
	assert.Equal(t, 0, codeCLI, outCLI)
}

// TestAnnotations: a tool says it may destroy exactly when the registry
// says its operation deletes, replaces or resets, and only execute_action
// reaches beyond the workspace.
func TestAnnotations(t *testing.T) {
	cs := connect(t, newDir(t))
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	for _, tl := range res.Tools {
		a := tl.Annotations
		require.NotNil(t, a, tl.Name)
		require.NotNil(t, a.OpenWorldHint, tl.Name)
		assert.Equal(t, tl.Name == "execute_action", *a.OpenWorldHint, tl.Name)
		sp := bridge.Lookup(opOf(tl.Name))
		if sp == nil || !sp.Mutating {
			continue
		}
		require.NotNil(t, a.DestructiveHint, tl.Name)
		assert.Equal(t, sp.Destructive, *a.DestructiveHint, tl.Name)
	}
	for _, name := range []string{"init", "policy_clear", "policy_set", "policy_revoke", "retire", "migrate"} {
		assert.True(t, bridge.Lookup(opOf(name)).Destructive, name)
	}
	for _, name := range []string{"report", "reflect", "consult", "policy_grant", "confirm", "rate"} {
		assert.False(t, bridge.Lookup(opOf(name)).Destructive, name)
	}
}
