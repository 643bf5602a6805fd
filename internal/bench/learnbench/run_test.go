package learnbench

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRun(t *testing.T, cfg Config) *Results {
	t.Helper()
	if cfg.WorkDir == "" {
		cfg.WorkDir = t.TempDir()
	}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func mustJSON(t *testing.T, r *Results) []byte {
	t.Helper()
	b, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The same configuration gives byte-identical results, whatever the
// parallelism; another seed gives other results.
func TestDeterminism(t *testing.T) {
	cfg := Config{Seeds: 2, SeedBase: 3, Episodes: 9, ProbeEvery: 0, ProbeSentences: 1, Bin: 3,
		Policies: []string{"random", "names", "v2", "ucs@0.8", "tabular", "ucb", "oracle"}}
	a := mustJSON(t, mustRun(t, cfg))
	cfg.Parallel = 2
	b := mustJSON(t, mustRun(t, cfg))
	if !bytes.Equal(a, b) {
		t.Fatal("two runs of the same configuration differ")
	}
	cfg.SeedBase = 4
	cfg.Policies = []string{"random", "names", "tabular", "ucb", "oracle"}
	c := mustJSON(t, mustRun(t, cfg))
	cfg.SeedBase = 3
	if d := mustJSON(t, mustRun(t, cfg)); bytes.Equal(c, d) {
		t.Fatal("other seeds gave the same results")
	}
}

// On a small run the oracle beats tabular ε-greedy, which beats random,
// and the lift of tabular over random has its 95% lower bound above zero.
func TestBaselinesOrder(t *testing.T) {
	res := mustRun(t, Config{Seeds: 10, SeedBase: 1, Episodes: 150, ProbeEvery: -1,
		Policies: []string{"random", "tabular", "oracle"}})
	for _, m := range []string{"step_success", "episode_success", "regret"} {
		for _, pair := range [][2]string{{"oracle", "tabular"}, {"tabular", "random"}} {
			iv, err := res.Lift(pair[0], pair[1], m)
			if err != nil {
				t.Fatal(err)
			}
			if !(iv.Lo > 0) {
				t.Errorf("%s over %s on %s: lift %.3f [%.3f, %.3f], want the lower bound above 0",
					pair[0], pair[1], m, iv.Mean, iv.Lo, iv.Hi)
			}
		}
	}
	oracle, _ := res.Policy("oracle")
	if r := oracle.Values("regret"); r[0] != 0 {
		t.Errorf("the oracle's regret is %v", r[0])
	}
	if h := oracle.Values("hit1_seen"); !math.IsNaN(h[0]) {
		t.Errorf("without probes, hit@1 is %v", h[0])
	}
}

// A tiny run of ucs in process completes, makes the calls it should, and
// its metrics are in range.
func TestTinyUCSRun(t *testing.T) {
	w := NewWorld()
	dir := t.TempDir()
	manifest := filepath.Join(dir, "manifest.json")
	writeFile(t, manifest, w.ManifestJSON())
	cfg := &Config{}
	cfg.defaults()
	plan := NewPlan(w, 11, 12, 6, 2)
	for _, spec := range []PolicySpec{{"v2", "v2", 1, ""}, {"ucs@0.8", "ucs", 0.8, ""}, {"ucs+exec@1", "ucs", 1, "exec"}} {
		run, err := runOne(cfg, w, spec, plan, filepath.Join(dir, spec.Name), manifest)
		if err != nil {
			t.Fatal(err)
		}
		steps, failures := 0, 0
		for _, ep := range run.Episodes {
			steps += ep.Steps
			failures += ep.Steps - ep.Successes
		}
		c := run.Calls
		if c.Consults != steps || c.Reports != steps {
			t.Errorf("%s: %d consults and %d reports for %d steps", spec.Name, c.Consults, c.Reports, steps)
		}
		// Positioning: at most one per episode start and one per failed step.
		if c.Positioning > len(run.Episodes)+failures || c.Positioning == 0 {
			t.Errorf("%s: %d positioning reports for %d episodes and %d failed steps", spec.Name, c.Positioning, len(run.Episodes), failures)
		}
		queries := 0
		for _, e := range plan.ProbeAt {
			queries += len(probeQueries(w, plan, e))
		}
		if c.ProbeConsults != queries || c.ProbeForks == 0 || len(run.Probes) != len(plan.ProbeAt) {
			t.Errorf("%s: %d probe consults for %d queries, %d forks, %d probes for %d points",
				spec.Name, c.ProbeConsults, queries, c.ProbeForks, len(run.Probes), len(plan.ProbeAt))
		}
		m := seedMetrics(w, plan, run)
		for _, k := range []string{"step_success", "step_success_late", "episode_success", "hit1_seen", "hit3_seen", "ndcg5_seen", "late_hit3_first", "late_hit3_10"} {
			if v := m[k]; !(v >= 0 && v <= 1) {
				t.Errorf("%s: %s = %v, want it in [0, 1]", spec.Name, k, v)
			}
		}
		if m["regret"] < 0 || m["ucs_calls_per_episode"] <= 0 {
			t.Errorf("%s: regret %v, calls per episode %v", spec.Name, m["regret"], m["ucs_calls_per_episode"])
		}
	}
}

// v2 and ucs@1.0 on the reference's model are one run, reported twice;
// on the default model (v3) they are two.
func TestSharedRuns(t *testing.T) {
	res := mustRun(t, Config{Seeds: 1, SeedBase: 1, Episodes: 4, ProbeEvery: 0, Policies: []string{"v2", "ucs@1.0"},
		UCSInitArgs: []string{"--model", "v2"}})
	p, _ := res.Policy("ucs@1.0")
	if p.SameAs != "v2" {
		t.Errorf("ucs@1.0 same as %q", p.SameAs)
	}
	res = mustRun(t, Config{Seeds: 1, SeedBase: 1, Episodes: 4, ProbeEvery: 0, Policies: []string{"v2", "ucs@1.0"}})
	if p, _ := res.Policy("ucs@1.0"); p.SameAs != "" {
		t.Errorf("on v3, ucs@1.0 same as %q", p.SameAs)
	}
}

// The real binary gives the same results as the bridge in process; an
// init argument the binary does not know fails in both.
func TestBinaryMatchesInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "ucs")
	build := exec.Command("go", "build", "-o", bin, "github.com/unified-cognitive-substrate/ucs/cmd/ucs")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cfg := Config{Seeds: 1, SeedBase: 5, Episodes: 5, ProbeEvery: 3, Policies: []string{"v2"}}
	in := mustRun(t, cfg)
	cfg.UCS = bin
	ex := mustRun(t, cfg)
	a, _ := json.Marshal(in.Policies)
	b, _ := json.Marshal(ex.Policies)
	if !bytes.Equal(a, b) {
		t.Fatalf("binary and in-process results differ:\n%s\n%s", a, b)
	}
	for _, c := range []Config{{UCS: bin}, {}} {
		c.Seeds, c.Episodes, c.Policies, c.UCSInitArgs, c.WorkDir = 1, 2, []string{"ucs"}, []string{"--no-such-flag"}, t.TempDir()
		if _, err := Run(c); err == nil {
			t.Errorf("ucs %q accepted an unknown init flag", c.UCS)
		}
	}
}

func TestTQuantile(t *testing.T) {
	for _, c := range []struct{ df, want float64 }{{1, 12.7062}, {2, 4.3027}, {9, 2.2622}, {30, 2.0423}, {1000, 1.9623}} {
		if got := TQuantile(0.975, c.df); math.Abs(got-c.want) > 1e-3 {
			t.Errorf("t(0.975, %v) = %.4f, want %.4f", c.df, got, c.want)
		}
	}
}

func TestMeanCI(t *testing.T) {
	iv := MeanCI([]float64{1, 2, 3, 4, math.NaN()})
	half := 3.1824 * math.Sqrt(5.0/3) / 2 // t(0.975, 3)·s/√n
	if iv.N != 4 || iv.Mean != 2.5 || math.Abs(iv.Hi-2.5-half) > 1e-3 || math.Abs(2.5-iv.Lo-half) > 1e-3 {
		t.Errorf("MeanCI = %+v, half width %.4f", iv, half)
	}
	d := PairedDiff([]float64{3, 4, 5}, []float64{1, 2, 3})
	if d.Mean != 2 || d.Lo != 2 || d.Hi != 2 {
		t.Errorf("constant paired difference: %+v", d)
	}
	if one := MeanCI([]float64{7}); one.Mean != 7 || !math.IsNaN(one.Lo) {
		t.Errorf("one value: %+v", one)
	}
}

func TestDriftRecovery(t *testing.T) {
	seq := func(parts ...[3]int) []EpisodeResult { // (episodes, steps, successes)
		var out []EpisodeResult
		for _, p := range parts {
			for range p[0] {
				out = append(out, EpisodeResult{Steps: p[1], Successes: p[2]})
			}
		}
		return out
	}
	// Steady: never falls below, 0.
	if got := driftRecovery(seq([3]int{100, 7, 6}, [3]int{100, 7, 6}), 100); got != 0 {
		t.Errorf("steady: %v", got)
	}
	// Level 6/7 before the drift (threshold 0.9·6/7 of 350 steps: 270
	// successes); 20 failed episodes, then 7/7. The window falls below
	// after 6 episodes and is back at episode 158, when it holds 11 failed
	// episodes and 39 good ones (273 ≥ 270; at 157, 266): 59 episodes after
	// the drift.
	if got := driftRecovery(seq([3]int{100, 7, 6}, [3]int{20, 7, 0}, [3]int{100, 7, 7}), 100); got != 59 {
		t.Errorf("collapse: %v", got)
	}
	// Never back: the episodes left.
	if got := driftRecovery(seq([3]int{100, 7, 6}, [3]int{40, 7, 0}), 100); got != 40 {
		t.Errorf("never back: %v", got)
	}
}

func TestRankScores(t *testing.T) {
	w := NewWorld()
	f := 0
	fam := &w.Families[f]
	q := ProbeQuery{Family: f, Position: 0, Cur: fam.Start}
	best, alt := fam.Steps[0].Best, fam.Steps[0].Alts[0]
	trap := fam.Steps[0].Traps[0]
	h1, h3, nd := rankScores(w, q, []string{best, alt, trap})
	if h1 != 1 || h3 != 1 || math.Abs(nd-1) > 1e-12 {
		t.Errorf("ideal ranking: %v %v %v", h1, h3, nd)
	}
	h1, h3, nd = rankScores(w, q, []string{trap, alt, best})
	want := (1/math.Log2(3) + 3/math.Log2(4)) / (3 + 1/math.Log2(3))
	if h1 != 0 || h3 != 1 || math.Abs(nd-want) > 1e-12 {
		t.Errorf("best third: %v %v %v, want nDCG %v", h1, h3, nd, want)
	}
	if h1, h3, nd = rankScores(w, q, nil); h1 != 0 || h3 != 0 || nd != 0 {
		t.Errorf("no suggestion: %v %v %v", h1, h3, nd)
	}
}

func TestSVGAndTables(t *testing.T) {
	res := mustRun(t, Config{Seeds: 3, SeedBase: 1, Episodes: 40, ProbeEvery: 10, Bin: 10,
		Policies: []string{"random", "names", "tabular", "ucb", "oracle"}})
	var svg bytes.Buffer
	if err := res.WriteSVG(&svg); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(&svg)
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
	}
	var tables bytes.Buffer
	res.WriteTables(&tables)
	for _, want := range []string{"| tabular |", "hit@1 (seen)", "Lift over tabular"} {
		if !bytes.Contains(tables.Bytes(), []byte(want)) {
			t.Errorf("tables lack %q", want)
		}
	}
}
