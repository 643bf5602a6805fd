package realbench

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func ep(task int, tools ...string) Episode {
	e := Episode{Task: task, Instruction: "task " + string(rune('0'+task)), Calls: []Call{}}
	for _, t := range tools {
		failed := t[len(t)-1] == '!'
		if failed {
			t = t[:len(t)-1]
		}
		e.Calls = append(e.Calls, Call{Tool: t, Error: failed})
	}
	return e
}

// The baselines on a tiny trace, against hand-computed rankings: task 1
// goes a → b, task 2 goes a → c, twice each. Scored: episodes 3 and 4.
//
// markov1 at a: after episode 1 {b: 1}, after episode 2 {b: 1, c: 1} (a
// tie, and a tie in the stream's counts too: by name, b), after episode 3
// {b: 2, c: 1}: it names b in both scored episodes, a hit and a miss, and
// the first step (a, from start) always: 3 of 4. markov2 keys on (start,
// a): the same counts. markov1-task keys on (task, a): b for task 1, c
// for task 2, 4 of 4. In episodes 1 and 2 the tables know nothing of the
// task at a: markov1 names a (the stream's most called tool) then b,
// markov1-task backs off to markov1.
func TestBaselinesHandComputed(t *testing.T) {
	eps := []Episode{ep(1, "a", "b"), ep(2, "a", "c"), ep(1, "a", "b"), ep(2, "a", "c")}
	s, err := Run(Config{Dataset: "tiny", Episodes: eps})
	require.NoError(t, err)
	require.Equal(t, []string{Markov1, Markov2, Markov1Task}, s.Methods)
	tops := func(m int) []string {
		var out []string
		for _, st := range s.Steps {
			out = append(out, st.Ranked[m][0])
		}
		return out
	}
	require.Equal(t, []string{"a", "a", "a", "b", "a", "b", "a", "b"}, tops(0))
	require.Equal(t, []string{"a", "a", "a", "b", "a", "b", "a", "b"}, tops(1))
	require.Equal(t, []string{"a", "a", "a", "b", "a", "b", "a", "c"}, tops(2))
	require.Equal(t, []string{"a", "b", "c"}, s.Steps[0].Ranked[0], "nothing known: by name")
	require.Equal(t, []string{"b", "c", "a"}, s.Steps[7].Ranked[0], "b twice, c once, then a")

	r := Score(s, ScoreOptions{})
	require.Equal(t, 4, r.ScoredSteps)
	want := map[string]struct {
		hit1, hit3 float64
		quarters   [4]float64
	}{
		Markov1:     {0.75, 1, [4]float64{0.5, 0.5, 1, 0.5}},
		Markov2:     {0.75, 1, [4]float64{0.5, 0.5, 1, 0.5}},
		Markov1Task: {1, 1, [4]float64{0.5, 0.5, 1, 1}},
	}
	for _, m := range r.Methods {
		w := want[m.Method]
		require.InDelta(t, w.hit1, m.Hit1.Mean, 1e-12, m.Method)
		require.InDelta(t, w.hit3, m.Hit3.Mean, 1e-12, m.Method)
		require.Equal(t, w.quarters, m.ByQuarter, m.Method)
		require.Equal(t, 1.0, m.FirstStep.Mean, m.Method)
		require.LessOrEqual(t, m.Hit1.Lo, m.Hit1.Mean)
		require.GreaterOrEqual(t, m.Hit1.Hi, m.Hit1.Mean)
	}
}

// markov2 keys on the previous two calls: after x the next is y when z
// came before x, w when y came before it.
func TestMarkov2TellsHistoryApart(t *testing.T) {
	m, ok := newMarkov(Markov2, []string{"w", "x", "y", "z"})
	require.True(t, ok)
	m.learn(0, []string{"z", "x"}, "y", true)
	m.learn(0, []string{"y", "x"}, "w", true)
	m.learn(0, []string{"y", "x"}, "w", true)
	m.learn(0, []string{"y", "x"}, "z", false) // a failure counts nothing
	require.Equal(t, "y", m.rank(0, []string{"z", "x"})[0])
	require.Equal(t, "w", m.rank(0, []string{"y", "x"})[0])
	require.Equal(t, []string{"w", "y", "x", "z"}, m.rank(0, []string{"x", "x"}), "unseen: markov1's counts at x, then the stream's, then names")
	_, ok = newMarkov("markov3", nil)
	require.False(t, ok)
}

// Score on a hand-made stream: only succeeded calls of the second half
// count; the first-step figure takes each episode's first call; a top pick
// that failed twice before in the episode is counted.
func TestScoreHandMade(t *testing.T) {
	s := &Stream{Dataset: "hand", Methods: []string{"x", "y"}, Episodes: 2, Steps: []Step{
		{Episode: 0, Index: 0, Tool: "a", OK: true, Ranked: [][]string{{"a"}, {"b"}}},
		{Episode: 1, Index: 0, Tool: "a", OK: false, Ranked: [][]string{{"a"}, {"a"}}},
		{Episode: 1, Index: 1, Tool: "a", OK: false, Ranked: [][]string{{"a"}, {"b"}}},
		{Episode: 1, Index: 2, Tool: "b", OK: true, Ranked: [][]string{{"a", "c", "b"}, {"b"}}},
		{Episode: 1, Index: 3, Tool: "c", OK: true, Ranked: [][]string{{"c"}, {"a", "b", "d", "c"}}},
	}}
	r := Score(s, ScoreOptions{Resamples: 100})
	require.Equal(t, 1, r.ScoredEpisodes)
	require.Equal(t, 2, r.ScoredSteps)
	require.Equal(t, 4, r.Consults)
	require.Equal(t, 2, r.Errors)
	x, y := r.Methods[0], r.Methods[1]
	require.Equal(t, Interval{0.5, 0.5, 0.5}, x.Hit1, "one resampled episode: no spread")
	require.Equal(t, Interval{1, 1, 1}, x.Hit3)
	require.Equal(t, Interval{0.5, 0.5, 0.5}, y.Hit1)
	require.Equal(t, Interval{0.5, 0.5, 0.5}, y.Hit3, "c is fourth")
	require.Equal(t, Interval{}, x.FirstStep, "the scored episode's first call failed")
	require.Equal(t, 1, x.FailedTwice, "a, after failing twice")
	require.Equal(t, 1, y.FailedTwice, "a at call 3 of episode 2")
	require.Equal(t, [4]float64{1, 0, 0.5, 0}, x.ByQuarter)
	require.Equal(t, [4]int{1, 0, 2, 0}, r.QuarterSteps)
}

func TestBootstrap(t *testing.T) {
	rs := newResampler(5, 500, DefaultSeed)
	num, den := []float64{1, 2, 0, 3, 1}, []float64{2, 2, 1, 4, 1}
	iv := rs.ratio(num, den)
	require.InDelta(t, 0.7, iv.Mean, 1e-12)
	require.Less(t, iv.Lo, iv.Mean)
	require.Greater(t, iv.Hi, iv.Mean)
	require.Equal(t, Interval{}, rs.diff(num, num, den), "a method against itself: exactly zero")
	require.Equal(t, iv, newResampler(5, 500, DefaultSeed).ratio(num, den), "seeded: the same interval")
	require.Equal(t, Interval{1, 1, 1}, rs.ratio(den, den))
	require.Equal(t, Interval{}, newResampler(0, 10, 1).ratio(nil, nil), "nothing scored")
	require.InDelta(t, 2.5, quantile([]float64{1, 2, 3, 4}, 0.5), 1e-12)
}
