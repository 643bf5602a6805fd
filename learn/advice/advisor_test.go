package advice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// refuse is a policy that refuses one capability.
func refuse(names []string, refused string) []string {
	var out []string
	for _, n := range names {
		if n != refused {
			out = append(out, n)
		}
	}
	return out
}

// The policy is asked once per ranking, in ranking order; what it refuses
// is left out of the ranking, the names and the description, and the
// advice remembered names the best step allowed, under the call's event.
func TestAdvisorLeavesOutRefused(t *testing.T) {
	p := toyPlace(t)
	m := nextstep.New(nextstep.DefaultParams)
	m.Prior = p.Prior
	all, _ := p.Rank(m, PositionEpisode("", "fix it", nextstep.Start), nil, false)
	require.Len(t, all, 3)
	refused := all[0].To
	var asked [][]string
	a := Advisor{Place: p, Seq: 7, TopN: 1, Allow: func(names []string) []string {
		asked = append(asked, names)
		return refuse(names, refused)
	}}
	v := NewSteps()
	out, id := a.SuggestSteps(v, m, "", "fix it", nil, false)
	require.NoError(t, m.Err())
	assert.Equal(t, [][]string{Names(all, func(r nextstep.Scored) string { return r.To })}, asked, "asked once, in ranking order")
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
	a := Advisor{Place: p, Seq: 3, TopN: 6, Allow: func(names []string) []string { return refuse(names, "edit") }}
	ranked, out := a.AdviseLearned(v, "test", "fix it", nil, true)
	assert.Equal(t, []string{"read"}, Names(ranked, func(r learn.Estimate) string { return r.To }))
	require.Len(t, out, 1)
	assert.Equal(t, "read", out[0].StrOf("to"))
}

// An empty ranking is asked too: the caller records that the policy was
// consulted (a policy file's use is part of the call's event), as it did
// before the ranking moved here.
func TestAdvisorAsksOnEmptyRanking(t *testing.T) {
	asked := 0
	a := Advisor{Place: toyPlace(t), TopN: 6, Allow: func(names []string) []string { asked++; return names }}
	ranked := allowed(a, []string{}, func(n string) string { return n })
	assert.Empty(t, ranked)
	assert.Equal(t, 1, asked)
}
