package realbench

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// A proto replays beside the baselines: a ranking at every step, the same
// on a second replay, paired against every baseline; told the task id, its
// first-step hit@1 on this slice is markov1-task's (a task's first call, remembered), and the
// task id and the exact instruction (one per task here) rank alike.
func TestProtoReplay(t *testing.T) {
	eps := slice(t, 6)
	cfg := Config{Dataset: "slice", Episodes: eps, Protos: []Proto{
		{Name: "v5", Params: nextstep.DefaultParams, TaskKey: "id"},
		{Name: "v5-context", Params: nextstep.DefaultParams, TaskKey: "context"},
	}}
	s, err := Run(cfg)
	require.NoError(t, err)
	require.Equal(t, []string{"v5", "v5-context", Markov1, Markov2, Markov1Task}, s.Methods)
	for _, st := range s.Steps {
		require.NotEmpty(t, st.Ranked[0])
		require.Equal(t, st.Ranked[0], st.Ranked[1])
	}
	again, err := Run(cfg)
	require.NoError(t, err)
	require.Equal(t, s.Steps, again.Steps)
	r := Score(s, ScoreOptions{Resamples: 100})
	require.Len(t, r.Paired, 2*len(Baselines))
	require.Equal(t, "v5", r.Paired[0].System)
	require.Equal(t, Markov1, r.Paired[0].Baseline)
	require.Equal(t, r.Methods[4].FirstStep.Mean, r.Methods[0].FirstStep.Mean)
}

// A proto split among agents: one agent, sharing or not, ranks as the
// proto alone (a fleet of one has no peers); four isolated agents each
// learn only their own tasks' calls, and four sharing agents rank with
// the others' evidence, so their rankings differ where another agent's
// calls teach something.
func TestProtoFleet(t *testing.T) {
	eps := slice(t, 12)
	p := Proto{Name: "v5", Params: nextstep.DefaultParams, TaskKey: "id"}
	one, solo, iso, shared := p, p, p, p
	one.Name, one.Agents, one.Share = "one", 1, true
	iso.Name, iso.Agents = "iso", 4
	shared.Name, shared.Agents, shared.Share = "shared", 4, true
	s, err := Run(Config{Dataset: "slice", Episodes: eps, Protos: []Proto{solo, one, iso, shared}})
	require.NoError(t, err)
	differ := 0
	for _, st := range s.Steps {
		require.Equal(t, st.Ranked[0], st.Ranked[1])
		if !slices.Equal(st.Ranked[2], st.Ranked[3]) {
			differ++
		}
	}
	require.Positive(t, differ, "sharing changes some rankings")
}
