package dashboard

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
)

// LearnedFirst lists the best evidenced transitions first, at most n,
// leaves out those without evidence and counts the learned ones.
func TestLearnedFirst(t *testing.T) {
	ts := []*learn.Transition{
		{From: "a", To: "b", N: 1, Edge: 0},
		{From: "b", To: "c", N: 0, Edge: 1},
		{From: "c", To: "d", N: 3, Edge: 2},
		{From: "d", To: "e", N: 2, Edge: -1},
	}
	name := func(t *learn.Transition) pyjson.Value { return pyjson.From(t.From + t.To) }
	out, total := LearnedFirst(ts, 2, name)
	assert.Equal(t, 3, total)
	assert.Equal(t, `["cd","de"]`, string(pyjson.AppendCompact(nil, pyjson.From(out))))
	out, total = LearnedFirst(nil, 2, name)
	assert.Equal(t, 0, total)
	assert.NotNil(t, out, "an empty list, not null")
}

// Show's answer has its members in the order ShowTable and the goldens
// read, the context and its suggestions only when asked.
func TestShowValue(t *testing.T) {
	sh := Show{Model: "v4", T: 7, Cursor: "web_fetch", Tasks: []pyjson.Value{}, Transitions: []pyjson.Value{},
		Goals: pyjson.From([]pyjson.Value{}), Due: []pyjson.Value{}}
	assert.Equal(t, `{"model":"v4","t":7,"cursor":"web_fetch","tasks":[],"transitions":[],"transitions_total":0,`+
		`"goals":[],"advisory_precision":null,"observations_due":[],"observations_due_count":0}`,
		string(pyjson.AppendCompact(nil, sh.Value())))
	sh.Context, sh.Suggestions = "pricing", pyjson.From([]pyjson.Value{})
	assert.Equal(t, `{"model":"v4","t":7,"cursor":"web_fetch","tasks":[],"transitions":[],"transitions_total":0,`+
		`"context":"pricing","suggestions":[],"goals":[],"advisory_precision":null,"observations_due":[],"observations_due_count":0}`,
		string(pyjson.AppendCompact(nil, sh.Value())))
}
