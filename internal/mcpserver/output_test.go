package mcpserver

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// connectAs is connect on a surface (bridge.SurfaceAgent or
// bridge.SurfaceOperator).
func connectAs(t *testing.T, ws, surface string) *mcp.ClientSession {
	t.Helper()
	clock, err := time.Parse(time.RFC3339, now)
	require.NoError(t, err)
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := New(bridge.Options{Workspace: ws, Now: clock, Surface: surface}).Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// outputSchemas resolves the outputSchema of every tool a server lists,
// as its client received it, with a JSON Schema validator.
func outputSchemas(t *testing.T, cs *mcp.ClientSession) map[string]*jsonschema.Resolved {
	t.Helper()
	out := map[string]*jsonschema.Resolved{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		require.NoError(t, err)
		require.NotNil(t, tool.OutputSchema, "%s declares no outputSchema", tool.Name)
		data, err := json.Marshal(tool.OutputSchema)
		require.NoError(t, err)
		var s jsonschema.Schema
		require.NoError(t, json.Unmarshal(data, &s), tool.Name)
		assert.Equal(t, "object", s.Type, "%s: an outputSchema is of an object", tool.Name)
		rs, err := s.Resolve(nil)
		require.NoError(t, err, "%s: its outputSchema is not a valid JSON Schema", tool.Name)
		out[tool.Name] = rs
	}
	return out
}

// validCall calls a tool and checks that its structured content, answer
// or tool error, is valid against the tool's outputSchema.
func validCall(t *testing.T, cs *mcp.ClientSession, schemas map[string]*jsonschema.Resolved, tool, args string) string {
	t.Helper()
	got, isErr := call(t, cs, tool, args)
	var v any
	require.NoError(t, json.Unmarshal([]byte(got), &v))
	rs := schemas[tool]
	require.NotNil(t, rs, "%s is no tool", tool)
	assert.NoError(t, rs.Validate(v), "%s %s (error: %v): its structured content is not valid against its outputSchema: %s",
		tool, args, isErr, got)
	return got
}

// TestOutputSchemas: every tool of both surfaces declares an outputSchema
// derived from the registry, and what it sends as structured content is
// valid against it, on a workspace of each reference model: a session
// runs every tool on the operator's surface, then every tool of the
// agent's on the same workspace through the agent's.
func TestOutputSchemas(t *testing.T) {
	for _, model := range []string{"v4", "v2"} {
		t.Run(model, func(t *testing.T) {
			ws := newDir(t)
			operator := connectAs(t, ws, bridge.SurfaceOperator)
			agent := connectAs(t, ws, bridge.SurfaceAgent)
			surfaces := []struct {
				name    string
				cs      *mcp.ClientSession
				schemas map[string]*jsonschema.Resolved
			}{{"operator", operator, outputSchemas(t, operator)}, {"agent", agent, outputSchemas(t, agent)}}
			steps := append([]step{{"init", `{"model": "` + model + `"}`}}, session[1:]...)
			steps = append(steps,
				step{"execute_action", `{"action": "web_fetch", "command": ["true"], "context": "fetch the page"}`},
				step{"log", `{"op": "report", "format": "table"}`},
				step{"show", `{"format": "table"}`},
				step{"observations", `{"due": true}`},
				step{"verify", `{"from_snapshot": true}`},
				step{"verify", `{"diff": 3}`})
			for _, sf := range surfaces {
				called := map[string]bool{}
				subst := map[string]string{}
				for _, st := range steps {
					if sf.schemas[st.tool] == nil {
						continue // not on this surface
					}
					args := st.args
					for k, v := range subst {
						args = replaceQuoted(args, k, v)
					}
					learn(t, subst, validCall(t, sf.cs, sf.schemas, st.tool, args))
					called[st.tool] = true
				}
				for name := range sf.schemas {
					assert.True(t, called[name], "%s of the %s surface is never called", name, sf.name)
				}
			}
		})
	}
}

// TestOutputSchemaDerived: each tool's outputSchema is its operation's
// (Spec.OutputSchema, an alias's that of the operation it stands for).
func TestOutputSchemaDerived(t *testing.T) {
	cs := connect(t, newDir(t))
	n := 0
	for tool, err := range cs.Tools(context.Background(), nil) {
		require.NoError(t, err)
		sp := bridge.Lookup(opOf(tool.Name))
		if tool.Name == execSpec.Name {
			sp = &execSpec
		}
		require.NotNil(t, sp, tool.Name)
		var want, got any
		require.NoError(t, json.Unmarshal(pyjson.AppendCompact(nil, outputSchema(sp, tool.Name)), &want))
		data, err := json.Marshal(tool.OutputSchema)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(data, &got))
		assert.Equal(t, want, got, tool.Name)
		props := got.(map[string]any)["properties"].(map[string]any)
		for _, f := range sp.Outputs() {
			assert.Contains(t, props, f.Name, "%s: %s is not declared", tool.Name, f.Name)
		}
		n++
	}
	assert.Equal(t, len(bridge.Specs())+len(aliases)+1, n)
}

// TestOutputSchemaRefuses: the validator the test above uses does refuse
// an answer without a member every answer has, or with one of the wrong
// type, and accepts a tool error.
func TestOutputSchemaRefuses(t *testing.T) {
	schemas := outputSchemas(t, connect(t, newDir(t)))
	for _, c := range []struct {
		tool, answer string
		valid        bool
	}{
		{"goal_add", `{"status": "added", "goal": {"id": "g1"}}`, true},
		{"goal_add", `{"status": "added"}`, false},
		{"goal_add", `{"status": 1, "goal": {}}`, false},
		{"goal_register", `{"goal": {}}`, false},
		{"status", `{"error": "the workspace is not initialized", "code": "not_initialized", "hint": "run ucs init"}`, true},
		{"status", `{"error": "no code"}`, false},
		{"execute_action", `{"error": "the policy refuses writer", "code": "permission_denied", "hint": "grant it", "missing": []}`, true},
	} {
		var v any
		require.NoError(t, json.Unmarshal([]byte(c.answer), &v))
		err := schemas[c.tool].Validate(v)
		assert.Equal(t, c.valid, err == nil, "%s %s: %v", c.tool, c.answer, err)
	}
}
