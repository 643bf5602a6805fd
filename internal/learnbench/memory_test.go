package learnbench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/unified-cognitive-substrate/ucs/learn"
)

// TestMemoryMatchesBridge drives the in-memory learner and the bridge (in
// process) with the same calls and wants the same advice: for the default
// model (v4, which follows the agent's trail) and for v3.
func TestMemoryMatchesBridge(t *testing.T) {
	for _, tc := range []struct {
		init   []string
		params learn.Params
	}{
		{nil, learnDefault()},
		{[]string{"--model", "v3"}, learn.V3Params},
	} {
		t.Run(fmt.Sprint(tc.init), func(t *testing.T) { memoryMatchesBridge(t, tc.init, tc.params) })
	}
}

func memoryMatchesBridge(t *testing.T, initArgs []string, params learn.Params) {
	w := NewWorld()
	dir := t.TempDir()
	manifest := filepath.Join(dir, "manifest.json")
	if err := os.WriteFile(manifest, w.ManifestJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	os.MkdirAll(ws, 0o755)
	b, err := InProcess{InitArgs: initArgs}.Init(ws, manifest)
	if err != nil {
		t.Fatal(err)
	}
	m, err := newMemory(w, params)
	if err != nil {
		t.Fatal(err)
	}
	cb, _ := b.Cursor()
	m.cursor = cb
	plan := NewPlan(w, 1, 40, -1, 1)
	pb := &ucsPolicy{w: w, l: b, compliance: 1, cursor: cb, scratch: dir}
	pm := &ucsPolicy{w: w, l: m, compliance: 1, cursor: cb, scratch: dir}
	for e := range plan.Episodes {
		rb, err := playEpisode(w, plan, e, &twin{t: t, a: pb, b: pm, la: b, lb: m})
		if err != nil {
			t.Fatal(err)
		}
		_ = rb
	}
}

func learnDefault() learn.Params { return (&Config{}).learnParams() }

// twin plays a and checks b chooses the same.
type twin struct {
	t      *testing.T
	a, b   *ucsPolicy
	la, lb Learner
}

func (p *twin) Begin(st *State) error { return nil }
func (p *twin) Choose(st *State) (string, error) {
	x, err := p.a.Choose(st)
	if err != nil {
		return "", err
	}
	y, err := p.b.Choose(st)
	if err != nil {
		return "", err
	}
	if x != y {
		ab, _ := p.la.Consult(st.Context)
		am, _ := p.lb.Consult(st.Context)
		p.t.Fatalf("episode %d step %d at %s: bridge %s %v, memory %s %v", st.Episode, st.Step, st.Cur, x, ab.Next, y, am.Next)
	}
	return x, nil
}
func (p *twin) Observe(st *State, a string, rep bool) error {
	if err := p.a.Observe(st, a, rep); err != nil {
		return err
	}
	if err := p.b.Observe(st, a, rep); err != nil {
		return err
	}
	if !slices.Equal([]string{p.a.cursor}, []string{p.b.cursor}) {
		p.t.Fatalf("cursors %s %s", p.a.cursor, p.b.cursor)
	}
	return nil
}
func (p *twin) Probe([]ProbeQuery) ([][]string, error) { return nil, nil }
func (p *twin) Close() error                           { return nil }

// TestModelLift is the short, seeded version of the benchmark that make
// test runs: ucs's default model (v4, in memory: the bridge's own ranking
// and learning code, TestMemoryMatchesBridge) over 10 development seeds ×
// 600 episodes, without probes. Its lift over tabular ε-greedy, over UCB1
// (both told the true family) and over random choices must have a 95%
// lower bound above zero, on cumulative regret and on the regret of the
// last third. (At 300 episodes the lift over tabular is not yet
// significant: ucs explores more in the first hundred episodes and wins
// afterwards.)
func TestModelLift(t *testing.T) {
	res := mustRun(t, Config{Seeds: 10, SeedBase: 1, Episodes: 600, ProbeEvery: -1,
		Policies: []string{"random", "ucb", "tabular", "learn@1.0"}})
	for _, base := range []string{"random", "ucb", "tabular"} {
		for _, m := range []string{"regret", "regret_late"} {
			iv, err := res.Lift("learn@1.0", base, m)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("over %s on %s: %.1f [%.1f, %.1f]", base, m, iv.Mean, iv.Lo, iv.Hi)
			if !(iv.Lo > 0) {
				t.Errorf("ucs over %s on %s: lift %.1f [%.1f, %.1f], want the lower bound above 0", base, m, iv.Mean, iv.Lo, iv.Hi)
			}
		}
	}
}
