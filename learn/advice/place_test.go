package advice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// toyPlace has three tools: edit lists itself, read → test is not an edge.
func toyPlace(t *testing.T) Place {
	t.Helper()
	man, err := torusfield.ParseManifest([]byte(`{"capabilities": [
	{"name": "read", "connects_to": ["edit"], "u": 0.6, "c": 0.2},
	{"name": "edit", "connects_to": ["test", "edit"], "u": 0.8, "c": 0.4},
	{"name": "test", "connects_to": ["read", "edit"], "u": 0.7, "c": 0.1}
], "semantic_map": {}}`))
	require.NoError(t, err)
	return Place{Graph: torusfield.New(man, torusfield.Options{}).Graph, Manifest: man}
}

// A task's start ranks every capability; a capability its edges (and
// itself when it lists itself), then the steps the agent discovered.
func TestCandidates(t *testing.T) {
	p := toyPlace(t)
	m := nextstep.New(nextstep.DefaultParams)
	m.Prior = p.Prior
	names, disc := p.Candidates(m, nextstep.Start)
	assert.Equal(t, []string{"read", "edit", "test"}, names)
	assert.Nil(t, disc)
	names, _ = p.Candidates(m, "read")
	assert.Equal(t, []string{"edit"}, names)
	assert.True(t, p.LacksStep("read", "test"))
	assert.False(t, p.LacksStep("edit", "edit"))

	ep := PositionEpisode("", "fix it", "read")
	cands, _ := p.Candidates(m, ep.At)
	m.Observe(ep, cands, "test", 1, 1, true)
	names, disc = p.Candidates(m, "read")
	assert.Equal(t, []string{"edit", "test"}, names)
	assert.Equal(t, map[string]bool{"test": true}, disc)
	assert.True(t, HadSuccess(m, "read", "test"))
	pairs := p.Pairs(m)
	require.Len(t, pairs, 1)
	assert.True(t, pairs[0].Discovered)
}

// A dead end's penalty lowers what it names, except in a probe's ranking.
func TestRankPenalty(t *testing.T) {
	p := toyPlace(t)
	m := nextstep.New(nextstep.DefaultParams)
	m.Prior = p.Prior
	ep := PositionEpisode("", "", nextstep.Start)
	ranked, _ := p.Rank(m, ep, nil, false)
	require.NotEmpty(t, ranked)
	top := ranked[0].To
	penalised, _ := p.Rank(m, ep, map[string]float64{top: 100}, false)
	assert.NotEqual(t, top, penalised[0].To)
	greedy, _ := p.Rank(m, ep, map[string]float64{top: 100}, true)
	assert.Equal(t, greedy[0].To, p.Describe(m, ep, "", greedy[0], 0, false).Members()[0].Value.Str())
}

// An advisory id is part of the journal's answers: it must not change.
func TestAdvisoryID(t *testing.T) {
	assert.Equal(t, AdvisoryID(12, "fix the login bug"), AdvisoryID(12, "fix the login bug"))
	assert.NotEqual(t, AdvisoryID(12, "x"), AdvisoryID(13, "x"))
	assert.Len(t, AdvisoryID(1, ""), 16)
}

// Relearning skips what the manifest lacks, moves the episode on a
// report that teaches nothing, and counts the rest, in a generation of
// its own.
func TestRelearn(t *testing.T) {
	p := toyPlace(t)
	v, m, learned := p.Relearn(nextstep.DefaultParams, 9, []Report{
		{Action: "read", Success: "success", Weight: 1, Context: "fix the bug"},
		{Action: "gone", Success: "success", Weight: 1, Context: "fix the bug"},
		{Action: "edit", Success: "neutral", Weight: 1, Context: "fix the bug"},
		{Action: "test", Success: "failure", Weight: 1, Context: "fix the bug"},
	})
	assert.Equal(t, 2, learned)
	assert.Equal(t, int64(9), v.Generation)
	assert.Equal(t, "edit", v.Current().At)
	assert.NotEmpty(t, m.Records())
	assert.Equal(t, m.Globals(), v.Globals)
}

// A v5 capability's experience is its successes and all its outcomes,
// wherever they were learned; one never reached has none. A model that
// learns nothing has no outcomes to count.
func TestOutcomes(t *testing.T) {
	m := nextstep.New(nextstep.DefaultParams)
	m.Learn(PositionEpisode("", "fix it", "read"), "edit", true)
	m.Learn(PositionEpisode("", "fix it", nextstep.Start), "edit", false)
	m.Learn(PositionEpisode("", "fix it", "edit"), "test", true)
	p := toyPlace(t)
	require.Nil(t, p.Outcomes(nil, nil, "", "fix it"))
	outcomes := p.Outcomes(nil, m, "", "fix it")
	for _, tc := range []struct {
		to      string
		succ, n float64
	}{
		{"edit", 1, 2},
		{"test", 1, 1},
		{"read", 0, 0},
	} {
		succ, n := outcomes(tc.to)
		assert.Equal(t, [2]float64{tc.succ, tc.n}, [2]float64{succ, n}, tc.to)
	}
}

// What a workspace learned of its steps is its model's: v5's pairs, v3's
// and v4's model, nothing for v2.
func TestLearned(t *testing.T) {
	p := toyPlace(t)
	assert.Nil(t, p.Learned(nil, nil))
	m := nextstep.New(nextstep.DefaultParams)
	m.Learn(PositionEpisode("", "fix it", "read"), "edit", true)
	l := p.Learned(nil, m)
	require.NotNil(t, l)
	assert.Equal(t, p.Pairs(m), l.Pairs())
	v := NewLearnState(LookupModel(ModelV3))
	assert.Same(t, v.Model, p.Learned(v, nil))
}
