package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestTools: the server lists a tool for every operation of the registry,
// under Spec.ToolName with Spec.InputSchema, and the OpenSentience names
// with the schema of the operation they stand for.
func TestTools(t *testing.T) {
	cs := connect(t, newDir(t))
	tools := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		require.NoError(t, err)
		assert.Nil(t, tools[tool.Name], "%s twice", tool.Name)
		tools[tool.Name] = tool
	}
	schema := func(tool *mcp.Tool) any {
		var v any
		data, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(data, &v))
		m := v.(map[string]any)
		delete(m, "title")
		delete(m, "description")
		return m
	}
	want := func(sp *bridge.Spec) any {
		var v any
		require.NoError(t, json.Unmarshal(pyjson.AppendCompact(nil, sp.ToolSchema()), &v))
		m := v.(map[string]any)
		delete(m, "title")
		delete(m, "description")
		return m
	}
	for _, sp := range bridge.Specs() {
		tool := tools[sp.ToolName()]
		if !assert.NotNil(t, tool, sp.Name) {
			continue
		}
		assert.Equal(t, want(sp), schema(tool), sp.Name)
		assert.Contains(t, tool.Description, sp.Summary)
		assert.Equal(t, !sp.Mutating, tool.Annotations.ReadOnlyHint, sp.Name)
	}
	for _, a := range aliases {
		require.NotNil(t, tools[a.name], a.name)
		assert.Equal(t, want(bridge.Lookup(a.op)), schema(tools[a.name]), a.name)
	}
	require.NotNil(t, tools["execute_action"])
	assert.Equal(t, want(&execSpec), schema(tools["execute_action"]))
	assert.Len(t, tools, len(bridge.Specs())+len(aliases)+1)
}

// step is one call of the comparison: a tool, its arguments, and the
// operation the command line runs for it.
type step struct{ tool, args string }

// session calls every operation (and every alias) once or more, in an
// order where each has something to act on. Ids (goals, observations,
// journal sequence numbers) are those a fresh workspace gives at the
// fixed clock.
var session = []step{
	{"init", `{}`},
	{"status", `{}`},
	{"resume", `{}`},
	{"session_start", `{}`},
	{"consult", `{"context": "research competitor pricing on the web", "capabilities": ["web_fetch"]}`},
	{"coverage", `{"context": "research competitor pricing on the web"}`},
	{"coverage_check", `{"context": "research competitor pricing", "capabilities": ["web_fetch"]}`},
	{"report", `{"action": "web_fetch", "outcome": "got the page", "success": "success", "context": "research pricing", "advisory_id": "ADVISORY", "request_id": "r-1"}`},
	{"report", `{"action": "web_fetch", "outcome": "got the page", "success": "success", "context": "research pricing", "advisory_id": "ADVISORY", "request_id": "r-1"}`},
	{"reflect", `{"type": "post_task", "text": "Fetch whole pages: snippets truncate price tables.", "capabilities": ["web_fetch"], "keywords": ["pricing"], "request_id": "r-2"}`},
	{"flush", `{}`},
	{"synthesize", `{"since": "7d"}`},
	{"export", `{}`},
	{"import", `{"format": "ucs_cognitive_export_v2", "methodology": [], "request_id": "r-3"}`},
	{"rate", `{"seq": 3, "success": "failure", "note": "a captcha page", "by": "operator"}`},
	{"report_outcome_manual", `{"seq": 3, "success": "partial"}`},
	{"amend", `{"seq": 3, "success": "partial"}`},
	{"goal_add", `{"content": "ship the parser fix", "count": 2}`},
	{"goal_register", `{"content": "fetch the pricing page", "threshold": 0.9, "retries": 1}`},
	{"goal_list", `{"state": "all"}`},
	{"goal_show", `{"id": "GOAL"}`},
	{"goal_status", `{"id": "GOAL"}`},
	{"goal_suspend", `{"id": "GOAL", "note": "later"}`},
	{"goal_resume", `{"id": "GOAL"}`},
	{"goal_fail", `{"id": "GOAL"}`},
	{"goal_retry", `{"id": "GOAL"}`},
	{"goal_done", `{"id": "GOAL", "note": "shipped"}`},
	{"policy_show", `{}`},
	{"policy_grant", `{"permission": "net:http:get"}`},
	{"policy_revoke", `{"permission": "net:http:get"}`},
	{"policy_set", `{"policy": {"version": 1, "grants": ["fs:read:*"], "note": "test"}}`},
	{"policy_clear", `{}`},
	{"policy_block", `{"capability": "exec", "missing": ["proc:exec:rm"], "reason": "not granted", "request_id": "r-4"}`},
	{"reflect", `{"type": "post_task", "text": "Read the brief before fetching anything.", "capabilities": ["read"], "keywords": ["brief"], "request_id": "r-5"}`},
	{"observations", `{"status": "all"}`},
	{"confirm", `{"id": "OBS", "note": "still true", "by": "operator"}`},
	{"contradict", `{"id": "OBS", "note": "not for CSV exports"}`},
	{"retire", `{"id": "OBS", "note": "the vendor changed its site", "by": "operator"}`},
	{"show", `{"context": "research competitor pricing on the web"}`},
	{"view", `{"inline": true}`},
	{"migrate", `{}`},
	{"log", `{"limit": 3}`},
	{"log", `{"op": "report", "format": "table"}`},
	{"check", `{}`},
	{"verify", `{}`},
}

// opOf is the operation a tool runs.
func opOf(tool string) string {
	for _, a := range aliases {
		if a.name == tool {
			return a.op
		}
	}
	for _, sp := range bridge.Specs() {
		if sp.ToolName() == tool {
			return sp.Name
		}
	}
	return ""
}

// TestSameAnswers: every tool, called on a fresh workspace, answers what
// the command line answers for the same input on another fresh workspace
// (the same JSON after canonicalisation; the workspace's path aside).
func TestSameAnswers(t *testing.T) {
	wsTool, wsCLI := newDir(t), newDir(t)
	cs := connect(t, wsTool)
	called := map[string]bool{}
	subst := map[string]string{}
	for _, st := range session {
		args := st.args
		for k, v := range subst {
			args = replaceQuoted(args, k, v)
		}
		got, isErr := call(t, cs, st.tool, args)
		op := opOf(st.tool)
		want, exit := runCLI(t, wsCLI, op, args)
		assert.Equal(t, exit != 0, isErr, "%s: %s / %s", st.tool, got, want)
		assert.True(t, !isErr || st.tool == "migrate", "%s: %s", st.tool, got) // nothing to migrate: an error on both
		if op == "log" && st.args != `{"op": "report", "format": "table"}` {
			want = `{"events":` + lines(t, want) + `}`
		}
		if op == "log" && st.args == `{"op": "report", "format": "table"}` {
			continue // a table for people: not JSON on the command line
		}
		assert.Equal(t, canonical(t, want, wsCLI), canonical(t, got, wsTool), "%s %s", st.tool, args)
		called[st.tool] = true
		learn(t, subst, got)
	}
	for _, sp := range bridge.Specs() {
		assert.True(t, called[sp.ToolName()] || sp.Name == "log", "%s is not compared", sp.Name)
	}
}

// learn takes the ids the session's later steps use from an answer.
func learn(t *testing.T, subst map[string]string, answer string) {
	v, err := pyjson.Parse([]byte(answer))
	require.NoError(t, err)
	if id, ok := v.Get("advisory_id"); ok {
		subst["ADVISORY"] = id.Str()
	}
	if g, ok := v.Get("goal"); ok {
		if id, ok := g.Get("id"); ok && subst["GOAL"] == "" {
			subst["GOAL"] = id.Str()
		}
	}
	if obs, ok := v.Get("observations"); ok {
		for _, o := range obs.Items() {
			if id, ok := o.Get("id"); ok && subst["OBS"] == "" && (o.StrOf("status") == "active" || o.StrOf("status") == "stale") {
				subst["OBS"] = id.Str()
			}
		}
	}
}

func replaceQuoted(s, k, v string) string {
	q := string(pyjson.AppendString(nil, v))
	return stringsReplace(s, `"`+k+`"`, q)
}

// TestBadInput: a bad input is a tool error with the command line's code
// and hint, and changes nothing.
func TestBadInput(t *testing.T) {
	wsTool, wsCLI := newDir(t), newDir(t)
	cs := connect(t, wsTool)
	// Before init: not initialized, on both.
	got, isErr := call(t, cs, "status", `{}`)
	want, exit := runCLI(t, wsCLI, "status", `{}`)
	assert.True(t, isErr)
	assert.Equal(t, 3, exit)
	assert.Equal(t, canonical(t, want, wsCLI), canonical(t, got, wsTool))
	call(t, cs, "init", `{}`)
	runCLI(t, wsCLI, "init", `{}`)
	for _, c := range []struct{ tool, args, code string }{
		{"report", `{"action": 5}`, "wrong_type"},
		{"report", `{"action": "read", "success": "great"}`, "invalid_value"},
		{"report", `{"outcome": "done"}`, "missing_field"},
		{"report", `{"action": "read", "bogus": 1}`, "unknown_field"},
		{"reflect", `{"type": "annotation", "text": "why"}`, ""},
		{"rate", `{"seq": 1, "success": "great"}`, "invalid_value"},
		{"consult", `{"context": "   "}`, "missing_field"},
		{"goal_show", `{"id": "g999"}`, "unknown_goal"},
		{"goal_status", `{"id": "g999"}`, "unknown_goal"},
		{"policy_grant", `{"permission": "nonsense"}`, ""},
	} {
		got, isErr := call(t, cs, c.tool, c.args)
		want, exit := runCLI(t, wsCLI, opOf(c.tool), c.args)
		assert.True(t, isErr, "%s %s: %s", c.tool, c.args, got)
		assert.Equal(t, 2, exit, "%s %s: %s", c.tool, c.args, want)
		want = toolWords(t, opOf(c.tool), want) // a tool's error names arguments, not flags
		assert.Equal(t, canonical(t, want, wsCLI), canonical(t, got, wsTool), "%s %s", c.tool, c.args)
		if c.code != "" {
			assert.Equal(t, c.code, code(t, got))
		}
	}
	// What only a tool can send: a member no field names, a wrong type.
	for _, sp := range bridge.Specs() {
		got, isErr := call(t, cs, sp.ToolName(), `{"bogus_field": 1}`)
		assert.True(t, isErr, sp.Name)
		if !sp.Open {
			assert.Equal(t, "unknown_field", code(t, got), sp.Name)
		}
	}
	got, isErr = call(t, cs, "execute_action", `{"action": "read"}`)
	assert.True(t, isErr)
	assert.Equal(t, "missing_field", code(t, got))
	got, _ = call(t, cs, "execute_action", `{"action": "read", "command": []}`)
	assert.Equal(t, "missing_field", code(t, got))
	got, _ = call(t, cs, "execute_action", `{"action": "no_such_tool", "command": ["true"]}`)
	assert.Equal(t, "unknown_capability", code(t, got))
	got, _ = call(t, cs, "execute_action", `{"action": "read", "command": "true"}`)
	assert.Equal(t, "wrong_type", code(t, got))
	assert.True(t, slices.Contains([]string{"unknown_field"}, code(t, must(call(t, cs, "execute_action", `{"action": "read", "command": ["true"], "x": 1}`)))))
}

func must(s string, _ bool) string { return s }

// toolWords is the command line's error object as a tool of op says it:
// its flags named as arguments (bridge.Spec.ToolError).
func toolWords(t *testing.T, op, answer string) string {
	t.Helper()
	v, err := pyjson.Parse([]byte(answer))
	require.NoError(t, err, answer)
	e := &fault.Error{Kind: fault.KindBadInput, Msg: v.StrOf("error"), Code: v.StrOf("code"), Hint: v.StrOf("hint")}
	te := bridge.Lookup(op).ToolError(e).(*fault.Error)
	return string(pyjson.AppendCompact(nil, v.With("error", te.Msg).With("hint", te.Hint)))
}

// TestErrorsNameArguments: a tool's errors name its arguments, never the
// command line's flags.
func TestErrorsNameArguments(t *testing.T) {
	cs := connect(t, newDir(t))
	call(t, cs, "init", `{}`)
	for _, c := range []struct{ tool, args, want string }{
		{"consult", `{}`, `argument \"context\"`},
		{"consult", `{"context": " "}`, `argument \"context\"`},
		{"coverage_check", `{}`, `argument \"context\"`},
		{"rate", `{"success": "failure"}`, `argument \"seq\"`},
		{"amend", `{"seq": 1}`, `argument \"success\"`},
		{"goal_register", `{}`, `argument \"content\"`},
		{"policy_set", `{}`, `argument \"policy\"`},
		{"log", `{"since": "yesterday-ish"}`, `argument \"since\"`},
	} {
		out, isErr := call(t, cs, c.tool, c.args)
		assert.True(t, isErr, "%s %s", c.tool, out)
		assert.Contains(t, out, c.want, "%s %s", c.tool, c.args)
		for _, f := range bridge.Lookup(opOf(c.tool)).Inputs() {
			assert.NotRegexp(t, `--`+f.FlagName()+`\b`, out, "%s %s names a flag", c.tool, c.args)
		}
	}
}
