package realbench

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/cli"
)

// slice is a small deterministic part of the fixture: every trial of its
// first tasks, in the fixture's order.
func slice(t *testing.T, tasks int) []Episode {
	eps, err := LoadTrace(fixture)
	require.NoError(t, err)
	var out []Episode
	for _, ep := range eps {
		if ep.Task < tasks {
			out = append(out, ep)
		}
	}
	return out
}

func ucsRun(t *testing.T, args ...string) string {
	var stdout, stderr bytes.Buffer
	code := cli.Run(args, cli.Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string {
			if k == "UCS_NOW" {
				return "2026-02-01T00:00:00Z"
			}
			return ""
		}})
	require.Equal(t, 0, code, "ucs %v: %s", args, stderr.String())
	return stdout.String()
}

// The harness replays a slice of the airline fixture through the real
// command line in process, for v4 and v2: every step gets a ranking from
// each method, a second replay in another directory ranks every step the
// same and scores byte-identical figures, and the workspaces it leaves
// pass ucs check and verify. (It does not assert that ucs beats the
// baselines: today it does not.)
func TestRunSliceInProcess(t *testing.T) {
	eps := slice(t, 2) // 8 episodes, 39 calls
	v4 := System{Name: "ucs v4", UCS: UCS{InitArgs: []string{"--model", "v4"}}}
	v2 := System{Name: "ucs v2", UCS: UCS{InitArgs: []string{"--model", "v2"}}}
	dir := t.TempDir()
	s, err := Run(Config{Dataset: "airline", Episodes: eps, Systems: []System{v4, v2}, WorkDir: dir, Parallel: 2})
	require.NoError(t, err)
	require.Equal(t, []string{"ucs v4", "ucs v2", Markov1, Markov2, Markov1Task}, s.Methods)
	calls := 0
	for _, ep := range eps {
		calls += len(ep.Calls)
	}
	require.Equal(t, 39, calls)
	require.Len(t, s.Steps, calls)
	for _, st := range s.Steps {
		for m, rk := range st.Ranked {
			require.NotEmpty(t, rk, "%s at episode %d call %d", s.Methods[m], st.Episode, st.Index)
			require.LessOrEqual(t, len(rk), TopN)
		}
	}
	// init, then per episode a start report and per call a consult and a report
	require.Equal(t, []int{1 + len(eps) + 2*calls, 1 + len(eps) + 2*calls}, s.UCSCalls)
	for i := range 2 {
		ws := filepath.Join(dir, "airline-"+string(rune('0'+i)))
		ucsRun(t, "--workspace", ws, "check")
		ucsRun(t, "--workspace", ws, "verify")
	}

	// Again, v4 alone (v2 as well would double the test's time for no
	// more coverage): the same rankings, the same figures to the byte.
	again, err := Run(Config{Dataset: "airline", Episodes: eps, Systems: []System{v4}, WorkDir: t.TempDir()})
	require.NoError(t, err)
	for k, st := range again.Steps {
		require.Equal(t, s.Steps[k].Ranked[0], st.Ranked[0], "step %d", k)
	}
	first, err := JSON([]*Results{Score(s, ScoreOptions{})})
	require.NoError(t, err)
	s.Methods, s.Systems, s.UCSCalls = slices.Delete(s.Methods, 1, 2), s.Systems[:1], s.UCSCalls[:1]
	for k := range s.Steps {
		s.Steps[k].Ranked = slices.Delete(s.Steps[k].Ranked, 1, 2)
	}
	second, err := JSON([]*Results{Score(again, ScoreOptions{})})
	require.NoError(t, err)
	without, err := JSON([]*Results{Score(s, ScoreOptions{})})
	require.NoError(t, err)
	require.Equal(t, string(without), string(second))

	md := Markdown([]*Results{Score(again, ScoreOptions{})})
	for _, want := range []string{"| airline | ucs v4 | ", "| airline | ucs v4 | markov1-task | ", "| airline | markov2 | "} {
		require.Contains(t, md, want)
	}
	require.Contains(t, string(first), `"method": "ucs v2"`)
}

// The task option, off by default, puts the task id in consult and report,
// and the init arguments choose the model: the two places a model that
// keys on the task plugs in.
func TestTaskOption(t *testing.T) {
	off, on := UCS{}, UCS{Task: true, InitArgs: []string{"--model", "v4"}}
	require.Equal(t, []string{"--workspace", "w", "consult", "--context", "fly"}, off.consultArgs("w", "fly", 7))
	require.Equal(t, []string{"--workspace", "w", "consult", "--context", "fly", "--task", "7"}, on.consultArgs("w", "fly", 7))
	require.JSONEq(t, `{"action":"a","success":"failure","context":"fly"}`, string(off.reportInput("a", "failure", "fly", 7)))
	require.JSONEq(t, `{"action":"a","success":"failure","context":"fly","task":"7"}`, string(on.reportInput("a", "failure", "fly", 7)))
	require.Equal(t, "in process init --model v4 task", on.Describe())
	require.Equal(t, "binary bin/ucs", UCS{Binary: "bin/ucs"}.Describe())
}

// The manifest has start first, every tool connected to every tool
// (itself included) and no prior.
func TestManifest(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.json")
	require.NoError(t, writeFile(m, Manifest([]string{"a", "b"})))
	require.Equal(t, "{\"capabilities\": [\n"+
		"  {\"name\": \"start\", \"connects_to\": [\"a\",\"b\"], \"u\": 0.5, \"c\": 0.5},\n"+
		"  {\"name\": \"a\", \"connects_to\": [\"a\",\"b\"], \"u\": 0.5, \"c\": 0.5},\n"+
		"  {\"name\": \"b\", \"connects_to\": [\"a\",\"b\"], \"u\": 0.5, \"c\": 0.5}\n]}\n", string(Manifest([]string{"a", "b"})))
	out := ucsRun(t, "--workspace", filepath.Join(dir, "ws"), "init", "--manifest", m)
	require.Contains(t, out, `"nodes": 3`)
}

func writeFile(path string, b []byte) error { return os.WriteFile(path, b, 0o644) }

// v5 on the airline fixture's development half, through the command line
// in process, told the task and consulting as a probe (the replayed
// agents never saw ucs's advice): the bar v5 was set, on the reporting
// run, asserted on the split the model was developed on (the held-out
// figures are docs/learning-benchmark.md's): hit@3 at least
// markov1-task's and hit@1 not worse (its paired interval reaching above
// zero), the paired interval against markov1 above zero, the last quarter
// above the first, and the first step at least markov1's.
func TestV5BeatsTheCountingTables(t *testing.T) {
	all, err := LoadTrace(fixture)
	require.NoError(t, err)
	eps, err := Split(all, "dev")
	require.NoError(t, err)
	v5 := System{Name: "ucs v5", UCS: UCS{InitArgs: []string{"--model", "v5"}, Task: true, Probe: true}}
	s, err := Run(Config{Dataset: "airline", Episodes: eps, Systems: []System{v5}, WorkDir: t.TempDir()})
	require.NoError(t, err)
	r := Score(s, ScoreOptions{Resamples: 500})
	by := map[string]MethodResult{}
	for _, m := range r.Methods {
		by[m.Method] = m
	}
	u, m1, mt := by["ucs v5"], by[Markov1], by[Markov1Task]
	t.Logf("ucs v5 hit@1 %.3f hit@3 %.3f first %.3f quarters %v; markov1-task %.3f %.3f; markov1 first %.3f",
		u.Hit1.Mean, u.Hit3.Mean, u.FirstStep.Mean, u.ByQuarter, mt.Hit1.Mean, mt.Hit3.Mean, m1.FirstStep.Mean)
	require.GreaterOrEqual(t, u.Hit3.Mean, mt.Hit3.Mean)
	require.GreaterOrEqual(t, u.FirstStep.Mean, m1.FirstStep.Mean)
	require.Greater(t, u.ByQuarter[3], u.ByQuarter[0])
	for _, p := range r.Paired {
		switch {
		case p.System == "ucs v5" && p.Baseline == Markov1:
			require.Greater(t, p.Hit1.Lo, 0.0, "ucs v5 − markov1, hit@1")
		case p.System == "ucs v5" && p.Baseline == Markov1Task:
			// On this half v5 is one step of 274 behind on hit@1 (0.650
			// against 0.653): a tie, which the paired interval says.
			require.Greater(t, p.Hit1.Hi, 0.0, "ucs v5 − markov1-task, hit@1: not worse")
		}
	}
}
