package learn

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTransitionRate(t *testing.T) {
	for _, tc := range []struct {
		s, n, want float64
	}{
		{0, 0, -1},
		{1, 2, 0.5},
		{0, 3, 0},
		{2.5, 2.5, 1},
	} {
		assert.Equal(t, tc.want, (&Transition{S: tc.s, N: tc.n}).Rate(), "%v of %v", tc.s, tc.n)
	}
}

// reports are a history, newest first.
var reports = []Report{
	{From: "edit", To: "test", Success: "success", Time: "t5", Context: " fix the parser "},
	{From: "edit", To: "test", Success: "failure", Time: "t4", Context: "fix the parser"},
	{From: "read", To: "test", Success: "partial", Time: "t3", Context: "a"},
	{From: "edit", To: "test", Success: "neutral", Time: "t2", Context: ""},
	{From: "edit", To: "test", Success: "success", Time: "t1", Context: "b"},
	{From: "edit", To: "test", Success: "success", Time: "t0", Context: "c"},
	{From: "edit", To: "test", Success: "success", Time: "", Context: "d"},
}

// Without a model the reports' outcomes are counted; the newest report
// gives the last-seen time, and at most three distinct contexts are kept,
// trimmed, newest first.
func TestTransitionsOfReports(t *testing.T) {
	g, _ := toyGraph(t)
	ts := Transitions(g, nil, reports)
	assert.Equal(t, []*Transition{
		{From: "edit", To: "test", S: 4, N: 5, Edge: g.Find("edit", "test"), Contexts: []string{"fix the parser", "b", "c"}, LastSeen: "t5"},
		{From: "read", To: "test", S: 0.5, N: 1, Edge: -1, Contexts: []string{"a"}, LastSeen: "t3"},
	}, ts)
}

// With a model its own counts are the transitions: a report of a step it
// never learned is not one.
func TestTransitionsOfModel(t *testing.T) {
	g, man := toyGraph(t)
	m := New(DefaultParams)
	Teach(g, man, m, Context{}, "edit", "test", "success", 2, 1)
	Teach(g, man, m, Context{}, "read", "read", "failure", 1, 2) // discovered
	ts := Transitions(g, m, reports)
	assert.Equal(t, []*Transition{
		{From: "edit", To: "test", S: 2, N: 2, Edge: g.Find("edit", "test"), Contexts: []string{"fix the parser", "b", "c"}, LastSeen: "t5"},
		{From: "read", To: "read", S: 0, N: 1, Discovered: true, Edge: -1},
	}, ts)
}

// ByEvidence orders by outcomes, then by the newest report, then as given;
// it leaves its argument as it was.
func TestByEvidence(t *testing.T) {
	ts := []*Transition{
		{From: "a", To: "b", N: 1, LastSeen: "t1"},
		{From: "a", To: "c", N: 3, LastSeen: "t0"},
		{From: "b", To: "a", N: 1, LastSeen: "t2"},
		{From: "c", To: "a", N: 1, LastSeen: "t1"},
	}
	order := func(ts []*Transition) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.From+t.To)
		}
		return out
	}
	assert.Equal(t, []string{"ac", "ba", "ab", "ca"}, order(ByEvidence(ts)))
	assert.Equal(t, []string{"ab", "ac", "ba", "ca"}, order(ts))
}
