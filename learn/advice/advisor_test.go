package advice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// The policy's refusals are asked in ranking order and left out of the
// ranking, the names and the description; the advice remembered names the
// best step allowed, under the call's event.
func TestAdvisorLeavesOutRefused(t *testing.T) {
	p := toyPlace(t)
	m := nextstep.New(nextstep.DefaultParams)
	m.Prior = p.Prior
	all, _ := p.Rank(m, PositionEpisode("", "fix it", nextstep.Start), nil, false)
	require.Len(t, all, 3)
	refused := all[0].To
	var asked []string
	a := Advisor{Place: p, Seq: 7, TopN: 1, Allow: func(to string) bool {
		asked = append(asked, to)
		return to != refused
	}}
	v := NewSteps()
	out, id := a.SuggestSteps(v, m, "", "fix it", nil, false)
	require.NoError(t, m.Err())
	assert.Equal(t, Names(all, func(r nextstep.Scored) string { return r.To }), asked)
	require.Len(t, out, 1)
	assert.Equal(t, all[1].To, out[0].StrOf("to"))
	assert.Equal(t, AdvisoryID(7, "fix it"), id)
	require.Len(t, v.Advisories, 1)
	assert.Equal(t, all[1].To, v.Advisories[0].Top)
	assert.Equal(t, int64(7), v.Advisories[0].Seq)
}

// v3 and v4 rank the same way: what the policy refuses is not suggested.
func TestAdvisorLearnedLeavesOutRefused(t *testing.T) {
	p := toyPlace(t)
	v := NewLearnState(LookupModel(ModelV4))
	a := Advisor{Place: p, Seq: 3, TopN: 6, Allow: func(to string) bool { return to != "edit" }}
	ranked, out := a.AdviseLearned(v, "test", "fix it", nil, true)
	assert.Equal(t, []string{"read"}, Names(ranked, func(r learn.Estimate) string { return r.To }))
	require.Len(t, out, 1)
	assert.Equal(t, "read", out[0].StrOf("to"))
}
