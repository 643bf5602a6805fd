package learnbench

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// The next-step predictor's policy is seeded and deterministic (two runs,
// byte-identical results, whatever the parallelism), it probes, and on a
// short run it learns: its step success beats random's on the same
// episodes.
func TestNextPolicy(t *testing.T) {
	cfg := Config{Seeds: 2, SeedBase: 5, Episodes: 120, ProbeEvery: 60, ProbeSentences: 1, Bin: 20,
		Policies: []string{"random", "next@1.0", "next@0.8"}}
	res := mustRun(t, cfg)
	a := mustJSON(t, res)
	cfg.Parallel = 2
	if b := mustJSON(t, mustRun(t, cfg)); !bytes.Equal(a, b) {
		t.Fatal("two runs of the same configuration differ")
	}
	l, err := res.Lift("next@1.0", "random", "step_success")
	if err != nil {
		t.Fatal(err)
	}
	if l.Mean <= 0 {
		t.Fatalf("next@1.0 step success lift over random %+.3f, want > 0", l.Mean)
	}
}

// At a tool the task uses twice in a row, the repeat's reported success
// moves the trail: the next step is ranked as coming from the tool itself,
// not from the tool before it (which the agent left two steps ago).
func TestNextPolicyRepeatMovesTrail(t *testing.T) {
	w := NewWorld()
	p := &nextPolicy{w: w, m: nextstep.New(NextDefaultParams), compliance: 1}
	st := &State{World: w, Context: "fix the flaky test", Cur: "intake"}
	require.NoError(t, p.Begin(st))
	st.Out = w.Out(st.Cur)
	_, err := p.Choose(st)
	require.NoError(t, err)
	require.NoError(t, p.Observe(st, "code_search", true))
	st.Cur, st.Out = "code_search", w.Out("code_search")
	_, err = p.Choose(st)
	require.NoError(t, err)
	require.Equal(t, [2]string{"intake", "code_search"}, [2]string{p.ep.Prev2, p.ep.Prev})
	st.Cur, st.Out = "test_runner", w.Out("test_runner")
	_, err = p.Choose(st)
	require.NoError(t, err)
	require.NoError(t, p.Observe(st, "test_runner", true)) // the repeat succeeded
	_, err = p.Choose(st)
	require.NoError(t, err)
	require.Equal(t, [2]string{"test_runner", "test_runner"}, [2]string{p.ep.Prev2, p.ep.Prev})
}
