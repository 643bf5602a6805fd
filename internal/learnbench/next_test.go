package learnbench

import (
	"bytes"
	"testing"
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
