package learn

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// toyManifest has three tools: edit lists itself (a self-loop the graph
// drops), read → test is not an edge.
const toyManifest = `{"capabilities": [
	{"name": "read", "connects_to": ["edit"], "u": 0.6, "c": 0.2},
	{"name": "edit", "connects_to": ["test", "edit"], "u": 0.8, "c": 0.4},
	{"name": "test", "connects_to": ["read", "edit"], "u": 0.7, "c": 0.1}
], "semantic_map": {}}`

func toyGraph(t *testing.T) (*torusfield.Graph, *torusfield.Manifest) {
	t.Helper()
	return graphOf(t, toyManifest)
}

// graphOf is a manifest's graph, as the engine resolves it.
func graphOf(t *testing.T, manifest string) (*torusfield.Graph, *torusfield.Manifest) {
	t.Helper()
	man, err := torusfield.ParseManifest([]byte(manifest))
	require.NoError(t, err)
	return torusfield.New(man, torusfield.Options{}).Graph, man
}

func TestOutcomeValue(t *testing.T) {
	for _, tc := range []struct {
		success string
		y, w    float64
	}{
		{"success", 1, 1},
		{"partial", 0.5, 1},
		{"failure", 0, 1},
		{"neutral", 0, 0},
		{"", 0, 0},
		{"Success", 0, 0}, // words are exact
	} {
		y, w := OutcomeValue(tc.success)
		assert.Equal(t, [2]float64{tc.y, tc.w}, [2]float64{y, w}, tc.success)
	}
}

func TestStepPrior(t *testing.T) {
	g, man := toyGraph(t)
	for _, tc := range []struct {
		from, to   string
		prior      float64
		discovered bool
	}{
		{"read", "edit", (0.6+0.8)/2 - (0.2+0.4)/2, false}, // an edge: the mean of its ends
		{"edit", "edit", 0.8 - 0.4, false},                 // a self-loop the manifest lists
		{"read", "read", 0, true},                          // a self-loop it does not
		{"read", "test", 0, true},                          // no edge
		{"nowhere", "edit", 0, true},                       // no capability
	} {
		prior, discovered := StepPrior(g, man, tc.from, tc.to)
		assert.InDelta(t, tc.prior, prior, 1e-12, tc.from+" → "+tc.to)
		assert.Equal(t, tc.discovered, discovered, tc.from+" → "+tc.to)
	}
}

// NextSteps gives the edges, then the manifest's self-loop, then what
// reports discovered, each once.
func TestNextSteps(t *testing.T) {
	g, man := toyGraph(t)
	m := New(DefaultParams)
	names := func(cs []Candidate) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.To)
		}
		return out
	}
	assert.Equal(t, []string{"test", "edit"}, names(NextSteps(g, man, m, "edit")))
	assert.Equal(t, []string{"edit"}, names(NextSteps(g, man, m, "read")))
	assert.Empty(t, NextSteps(g, man, m, "nowhere"))

	_, _, discovered := Teach(g, man, m, Context{}, "read", "test", "success", 1, 1)
	assert.True(t, discovered)
	_, _, discovered = Teach(g, man, m, Context{}, "read", "edit", "success", 1, 2)
	assert.False(t, discovered)
	cs := NextSteps(g, man, m, "read")
	assert.Equal(t, []string{"edit", "test"}, names(cs))
	assert.Zero(t, cs[1].Prior, "a discovered step has no prior")
	// A neutral report teaches nothing, so it discovers nothing.
	Teach(g, man, m, Context{}, "edit", "read", "neutral", 1, 3)
	assert.Equal(t, []string{"test", "edit"}, names(NextSteps(g, man, m, "edit")))
}

// Teach weighs the outcome by the report's weight: a weight of 0 teaches
// nothing, and a failure lowers the estimate.
func TestTeach(t *testing.T) {
	g, man := toyGraph(t)
	m := New(DefaultParams)
	ctx := Context{Terms: []string{"fix"}}
	before, after, _ := Teach(g, man, m, ctx, "edit", "test", "success", 0, 1)
	assert.Equal(t, before, after, "weight 0")
	assert.Zero(t, m.Clock)
	before, after, _ = Teach(g, man, m, ctx, "edit", "test", "failure", 1, 1)
	assert.Less(t, after.P, before.P)
	assert.Equal(t, 1.0, after.Evidence.N)
	_, after, _ = Teach(g, man, m, ctx, "edit", "test", "partial", 0.5, 2)
	assert.Equal(t, 1.5, after.Evidence.N)
	assert.Equal(t, 0.25, after.Evidence.S)
}

// A penalty lowers a step's score by its amount and ranks again.
func TestRankNextStepsPenalty(t *testing.T) {
	g, man := toyGraph(t)
	m := New(DefaultParams)
	ranked := RankNextSteps(g, man, m, Context{}, "edit", nil, true)
	require.Len(t, ranked, 2)
	first, second := ranked[0], ranked[1]
	penalty := map[string]float64{first.To: first.Score - second.Score + 1, second.To: -5} // a non-positive penalty is none
	again := RankNextSteps(g, man, m, Context{}, "edit", penalty, true)
	assert.Equal(t, []string{second.To, first.To}, []string{again[0].To, again[1].To})
	assert.Equal(t, second.Score, again[0].Score)
	assert.InDelta(t, second.Score-1, again[1].Score, 1e-12)
	greedy := RankNextSteps(g, man, m, Context{}, "edit", nil, false)
	for _, r := range greedy {
		assert.Zero(t, r.Bonus)
	}
}

// Reteach with retract takes back what the same outcome taught: an
// amendment leaves the evidence as it was before the report.
func TestReteachRetract(t *testing.T) {
	g, man := toyGraph(t)
	s := NewState(New(DefaultParams))
	terms := []string{"fix"}
	_, taught := s.Reteach(g, man, terms, "", "edit", "test", "failure", 1, 1, false)
	assert.Equal(t, 1.0, taught.Evidence.N)
	before, after := s.Reteach(g, man, terms, "", "edit", "test", "failure", 1, 2, true)
	assert.Equal(t, taught.P, before.P)
	assert.Zero(t, after.Evidence.N, "the retracted outcome is gone")
}
