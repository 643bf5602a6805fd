package bridge

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestRegistry: every operation is described whole, once, init first.
func TestRegistry(t *testing.T) {
	specs := Specs()
	require.NotEmpty(t, specs)
	assert.Equal(t, "init", specs[0].Name, "init first")
	seen := map[string]bool{}
	for _, sp := range specs {
		assert.False(t, seen[sp.Name], "%s twice", sp.Name)
		seen[sp.Name] = true
		assert.Same(t, sp, Lookup(sp.Name))
		assert.NotEmpty(t, sp.Summary, sp.Name)
		assert.False(t, strings.HasSuffix(sp.Summary, "."), "%s: a summary has no final period", sp.Name)
		assert.NotContains(t, sp.Summary, "\n", sp.Name)
		assert.NotEmpty(t, sp.Long, sp.Name)
		assert.True(t, (sp.run == nil) != (sp.tool == nil), "%s runs one way", sp.Name)
		for line := range strings.SplitSeq(sp.Example, "\n") {
			assert.Regexp(t, `(^|[|&] )ucs (--workspace \S+ )?`+sp.Name+`\b`, line, "%s: every example runs it", sp.Name)
		}
		names := map[string]bool{}
		for _, f := range sp.Inputs() {
			assert.False(t, names[f.Name], "%s: field %s twice", sp.Name, f.Name)
			names[f.Name] = true
			assert.Regexp(t, `^[a-z][a-z_]*$`, f.Name)
			assert.NotEmpty(t, f.Doc, "%s.%s", sp.Name, f.Name)
			if f.Enum != nil {
				assert.Equal(t, field.String, f.Type, "%s.%s: an enum is a string", sp.Name, f.Name)
			}
			if f.Default != nil {
				_, err := f.Check(pyjson.From(f.Default), true)
				assert.NoError(t, err, "%s.%s: the default is valid", sp.Name, f.Name)
			}
			if f.Flag {
				assert.NotEqual(t, field.Object, f.Type, "%s.%s: no flag takes an object", sp.Name, f.Name)
				assert.NotEqual(t, field.Objects, f.Type, "%s.%s: no flag takes objects", sp.Name, f.Name)
			}
		}
		assert.Equal(t, sp.Retries, names["request_id"], "%s: request_id if and only if it Retries", sp.Name)
		assert.False(t, slices.ContainsFunc(sp.Fields, func(f field.Field) bool { return f.Name == "request_id" }),
			"%s: request_id comes from Retries", sp.Name)
	}
	assert.Nil(t, Lookup("bogus"))
	assert.Equal(t, []string{"init", "consult", "coverage", "report", "reflect", "import", "flush", "resume", "synthesize", "status", "export", "migrate", "rate", "amend", "show", "view",
		"goal add", "goal list", "goal show", "goal done", "goal fail", "goal suspend", "goal resume", "goal retry",
		"policy show", "policy grant", "policy revoke", "policy set", "policy clear", "policy block",
		"observations", "confirm", "contradict", "retire"},
		Operations(), "the operations on the engine's state")
}

// TestValidate: a call is refused before the workspace is looked at, with
// the code and message of its first problem.
func TestValidate(t *testing.T) {
	b := New(Options{Workspace: filepath.Join(t.TempDir(), "none"), Now: testNow})
	for _, c := range []struct {
		op, args, input string
		code, msg, hint string
	}{
		{"report", "", `{"action": "read", "sucess": "success"}`, "unknown_field",
			`unknown field "sucess" for report`, `did you mean "success"? the fields of report are action, outcome, success, significance, context, task, advisory_id, reasoning_trace, goal_id, result, expect, request_id`},
		{"report", "", `{"action": "read", "zzz": 1}`, "unknown_field",
			`unknown field "zzz" for report`, `the fields of report are action, outcome, success, significance, context, task, advisory_id, reasoning_trace, goal_id, result, expect, request_id`},
		{"report", `{"context": "x"}`, `{"action": "read"}`, "unknown_field", `report has no argument "context"`, "report takes no input"},
		{"status", "", `{"x": 1}`, "unknown_field", `unknown field "x" for status`, "status takes no input"},
		{"report", "", `{"outcome": "x"}`, "missing_field", `required field "action" is missing`, `add "action" to the input`},
		{"report", "", `{"action": null}`, "missing_field", `required field "action" is missing`, `add "action" to the input`},
		{"report", "", `{"action": " "}`, "missing_field", `required field "action" is empty`, `give "action" a value`},
		{"report", "", `{"action": 5}`, "wrong_type", `field "action" must be a string, got an int`, `"action" must be a JSON string`},
		{"report", "", `{"action": "read", "success": "ok"}`, "invalid_value",
			`field "success" is "ok", not one of success, partial, neutral, failure`, "use one of: success, partial, neutral, failure"},
		{"report", "", `{"action": "read", "success": true}`, "wrong_type",
			`field "success" must be one of success, partial, neutral, failure, got a bool`, "use one of: success, partial, neutral, failure"},
		{"report", "", `{"action": "read", "significance": "Notable"}`, "invalid_value",
			`field "significance" is "Notable", not one of routine, notable, critical`, "use one of: routine, notable, critical"},
		{"report", "", `{"action": "read", "reasoning_trace": []}`, "wrong_type",
			`field "reasoning_trace" must be an object, got an array`, `"reasoning_trace" must be a JSON object`},
		{"report", "", `{"action": "re\u0007ad"}`, "invalid_value", `field "action" holds a control character`, "capability names are plain text"},
		{"report", "", `{"action": "read", "request_id": ""}`, "wrong_type",
			`field "request_id" must be a non-empty string of at most 256 bytes`, "send request_id as a non-empty string of at most 256 bytes"},
		{"reflect", "", `{"text": "x", "keywords": ["a", 1]}`, "wrong_type", `keywords[1] must be a string, got an int`, `"keywords" must be a list of strings`},
		{"reflect", "", `{"type": "annotation", "text": "x"}`, "missing_field", `an annotation needs "artifact_id"`, ""},
		{"import", "", `{"format": "other"}`, "invalid_value", `unknown export format "other"`, "pipe the output of `ucs export` (format ucs_cognitive_export_v2)"},
		{"import", "", `{}`, "invalid_value", `unknown export format ""`, ""},
		{"import", "", `{"format": "ucs_cognitive_export_v2", "dead_ends": [{}, 3]}`, "wrong_type", `dead_ends[1] must be an object`, `"dead_ends" must be a list of objects`},
		{"consult", `{"context": "  "}`, "", "missing_field", "--context is required", "give --context: the task or situation"},
		{"consult", `{"context": "x", "capabilities": "read"}`, "", "wrong_type",
			"--capabilities must be a list of strings, got a string", "--capabilities must be a list of strings"},
		{"consult", `{"context": "x", "bogus": 1}`, "", "unknown_field", `consult has no argument "bogus"`, "the fields of consult are context, capabilities, task, from, task_start, greedy, fields"},
		{"log", `{"format": "xml"}`, "", "invalid_value", `--format is "xml", not one of json, table`, "use one of: json, table"},
		{"verify", `{"from": "3"}`, "", "wrong_type", "--from must be an integer, got a string", "--from must be a JSON integer"},
		{"check", `{"repair": 1}`, "", "wrong_type", "--repair must be true or false, got an int", "--repair must be true or false"},
		{"bogus", "", "", "unknown_command", `unknown command "bogus"`, "run `ucs --help` for the commands"},
	} {
		call := Call{Op: c.op, Input: pyjson.NullValue()}
		if c.args != "" {
			call.Args = input(t, c.args)
		}
		if c.input != "" {
			call.Input = input(t, c.input)
		}
		_, err := b.Do(call)
		var e *fault.Error
		require.True(t, errors.As(err, &e), "%s %s %s: %v", c.op, c.args, c.input, err)
		assert.Equal(t, fault.KindBadInput, e.Kind, "%s %s", c.op, c.input)
		assert.Equal(t, c.code, e.Code, "%s %s", c.op, c.input)
		assert.Equal(t, c.msg, e.Msg, "%s %s", c.op, c.input)
		if c.hint != "" {
			assert.Equal(t, c.hint, e.Hint, "%s %s", c.op, c.input)
		}
	}
	assert.NoDirExists(t, b.ws.Root(), "validation touches no file")
}

// TestValidateAccepts: what the schema allows passes validation (and, on
// no workspace, reaches not_initialized).
func TestValidateAccepts(t *testing.T) {
	b := New(Options{Workspace: filepath.Join(t.TempDir(), "none"), Now: testNow})
	for _, c := range []struct{ op, args, input string }{
		{"report", "", `{"action": "read", "success": "FAILURE", "significance": null, "reasoning_trace": {"any": ["thing"]}, "request_id": "r1"}`},
		{"reflect", "", `{"type": "dead_end", "text": "x", "capabilities": [], "keywords": null, "topic": "t"}`},
		{"import", "", `{"format": "ucs_cognitive_export_v1", "pp_vector": {}, "engine_t": 3, "something_new": true}`},
		{"consult", `{"context": "x", "capabilities": ["read"]}`, ""},
		{"consult", `{"context": "x", "capabilities": null}`, ""},
		{"flush", "", ""},
		{"flush", "", "{}"},
	} {
		call := Call{Op: c.op, Input: pyjson.NullValue()}
		if c.args != "" {
			call.Args = input(t, c.args)
		}
		if c.input != "" {
			call.Input = input(t, c.input)
		}
		_, err := b.Do(call)
		assert.ErrorIs(t, err, fault.ErrNotInitialized, "%s %s %s", c.op, c.args, c.input)
	}
}

// TestSuccessAnyCase: "Success" is "success", in the answer and in the
// journal, which records the word the operation used.
func TestSuccessAnyCase(t *testing.T) {
	lower, upper := newWorkspace(t), newWorkspace(t)
	want, err := lower.Do(Call{Op: "report", Input: input(t, `{"action": "read", "success": "success"}`)})
	require.NoError(t, err)
	got, err := upper.Do(Call{Op: "report", Input: input(t, `{"action": "read", "success": "SUCCESS"}`)})
	require.NoError(t, err)
	assert.Equal(t, string(pyjson.Canonical(want)), string(pyjson.Canonical(got)))
	last, ok, err := upper.ws.LastEvent()
	require.NoError(t, err)
	require.True(t, ok)
	in := last.Input
	assert.Equal(t, `{"action":"read","success":"success"}`, string(pyjson.Canonical(in)))
	out, err := upper.Verify(VerifyOptions{})
	require.NoError(t, err)
	n, _ := out.GetOr("verified", pyjson.NullValue()).Int()
	assert.Equal(t, int64(2), n, "%s", pyjson.Canonical(out))
}

// TestVerifyAcceptsOldUnknownFields: a journal written before unknown
// fields were refused still verifies.
func TestVerifyAcceptsOldUnknownFields(t *testing.T) {
	b := newWorkspace(t)
	_, err := b.Do(Call{Op: "report", Input: input(t, `{"action": "read", "note": "sent by an older agent"}`)})
	assert.Equal(t, "unknown_field", fault.AsError(err).Code)
	b.replaying = true // as ucs did before the registry
	_, err = b.Do(Call{Op: "report", Input: input(t, `{"action": "read", "note": "sent by an older agent"}`)})
	require.NoError(t, err)
	out, err := New(Options{Workspace: b.ws.Root()}).Verify(VerifyOptions{})
	require.NoError(t, err)
	n, _ := out.GetOr("verified", pyjson.NullValue()).Int()
	assert.Equal(t, int64(2), n, "%s", pyjson.Canonical(out))
}

// TestSpecCall: one object, such as a tool's arguments, becomes the call
// the command line makes: flags in Args, the rest in Input.
func TestSpecCall(t *testing.T) {
	c := Lookup("consult").Call(input(t, `{"context": "x", "capabilities": ["read"]}`))
	assert.Equal(t, `{"capabilities":["read"],"context":"x"}`, string(pyjson.Canonical(c.Args)))
	assert.True(t, c.Input.IsNull())
	c = Lookup("report").Call(input(t, `{"action": "read", "request_id": "r"}`))
	assert.Equal(t, `{}`, string(pyjson.Canonical(c.Args)))
	assert.Equal(t, `{"action":"read","request_id":"r"}`, string(pyjson.Canonical(c.Input)))
	c = Lookup("status").Call(input(t, `{}`))
	assert.True(t, c.Input.IsNull())
	c = Lookup("status").Call(input(t, `{"x": 1}`))
	assert.Equal(t, `{"x":1}`, string(pyjson.Canonical(c.Input)), "left for validation to refuse")
}

// TestInputSchema: each operation's JSON Schema holds its fields, their
// types, words, defaults and which are required, and nothing else.
func TestInputSchema(t *testing.T) {
	for _, sp := range Specs() {
		// It survives a round trip through JSON.
		s, err := pyjson.Parse(pyjson.Canonical(sp.InputSchema()))
		require.NoError(t, err, sp.Name)
		assert.Equal(t, "object", s.GetOr("type", pyjson.NullValue()).Str())
		assert.Equal(t, sp.Open, s.GetOr("additionalProperties", pyjson.NullValue()).Bool(), sp.Name)
		props, _ := s.Get("properties")
		var names, required []string
		for _, f := range sp.Inputs() {
			names = append(names, f.Name)
			if f.Required {
				required = append(required, f.Name)
			}
			p, ok := props.Get(f.Name)
			require.True(t, ok, "%s.%s", sp.Name, f.Name)
			assert.Equal(t, f.Describe(), p.GetOr("description", pyjson.NullValue()).Str())
			typ := p.GetOr("type", pyjson.NullValue()).Str()
			switch f.Type {
			case field.Strings, field.Objects:
				assert.Equal(t, "array", typ)
				items, _ := p.Get("items")
				assert.Equal(t, map[field.Type]string{field.Strings: "string", field.Objects: "object"}[f.Type], items.GetOr("type", pyjson.NullValue()).Str())
			default:
				assert.Equal(t, map[field.Type]string{field.String: "string", field.Int: "integer", field.Number: "number", field.Bool: "boolean", field.Object: "object"}[f.Type], typ)
			}
			enum, _ := p.Get("enum")
			var words []string
			for _, w := range enum.Items() {
				words = append(words, w.Str())
			}
			assert.Equal(t, f.Enum, words, "%s.%s", sp.Name, f.Name)
			def, hasDef := p.Get("default")
			assert.Equal(t, f.Default != nil, hasDef, "%s.%s", sp.Name, f.Name)
			if hasDef {
				assert.Equal(t, string(pyjson.Canonical(pyjson.From(f.Default))), string(pyjson.Canonical(def)))
			}
		}
		var got []string
		ordered, _ := sp.InputSchema().Get("properties")
		for _, m := range ordered.Members() {
			got = append(got, m.Key)
		}
		assert.Equal(t, names, got, "%s: the properties are the fields, in order", sp.Name)
		req, _ := s.Get("required")
		var gotReq []string
		for _, r := range req.Items() {
			gotReq = append(gotReq, r.Str())
		}
		assert.Equal(t, required, gotReq, sp.Name)
	}
	// One whole, as a tool would declare it.
	assert.Equal(t, `{"$schema":"https://json-schema.org/draft/2020-12/schema","additionalProperties":false,`+
		`"description":"Before a significant task: suggested paths, methodology, dead ends, judgment",`+
		`"properties":{"capabilities":{"description":"capability names to energize besides those the context evokes","items":{"type":"string"},"type":"array"},`+
		`"context":{"description":"the task or situation (at most 16384 characters; secrets redacted)","maxLength":16384,"pattern":"\\S","type":"string"},`+
		`"fields":{"description":"only these parts of the answer, e.g. suggested_paths,dead_ends (cursor and advisory_id always)","items":{"type":"string"},"type":"array"},`+
		`"from":{"description":"rank the next steps as if the agent stood at this capability (read-only: nothing is remembered, committed or journaled) (at most 1024 characters)","maxLength":1024,"type":"string"},`+
		`"greedy":{"description":"v3 and later: rank by the estimate alone, without the exploration bonus (v5: and without dead ends' penalty): a probe, whose top suggestion the next report is not counted as following","type":"boolean"},`+
		`"task":{"description":"v5: the task this step is part of, an id you choose: a task not seen before starts at its start (default: the context tells tasks apart) (at most 256 characters; secrets redacted)","maxLength":256,"type":"string"},`+
		`"task_start":{"description":"v5: rank the first steps of the task (read-only, as --from)","type":"boolean"}},`+
		`"required":["context"],"title":"consult","type":"object"}`,
		string(pyjson.Canonical(Lookup("consult").InputSchema())))
}
