package nextstep

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

var tools = []string{"a", "b", "c", "d", "e"}

func top(m *Model, ep *Episode) string { return m.Rank(ep, tools)[0].To }

// play learns one episode's calls (tool, ok) and returns the episode.
func play(m *Model, task string, terms []string, calls ...any) *Episode {
	ep := NewEpisode(task, terms)
	for i := 0; i < len(calls); i += 2 {
		m.Learn(ep, calls[i].(string), calls[i+1].(bool))
	}
	return ep
}

// A seeded random stream learned twice gives the same rankings at every
// step and byte-identical state; the decoded state ranks the same.
func TestDeterministic(t *testing.T) {
	run := func() (*Model, []string) {
		m := New(DefaultParams)
		r := rand.New(rand.NewPCG(27, 5))
		var trace []string
		for e := range 60 {
			ep := NewEpisode(fmt.Sprint(e%7), []string{"w" + fmt.Sprint(e%3), "common"})
			for range 5 {
				rk := m.Rank(ep, tools)
				trace = append(trace, fmt.Sprint(rk))
				m.Learn(ep, tools[r.IntN(len(tools))], r.Float64() < 0.8)
			}
		}
		return m, trace
	}
	m1, t1 := run()
	m2, t2 := run()
	require.Equal(t, t1, t2)
	require.Equal(t, m1.Records(), m2.Records())
	st := MapStore{}
	st.Put(m1.Records())
	d := Open(m1.P, st, m1.Globals())
	ep := NewEpisode("3", []string{"w1", "common"})
	require.Equal(t, m1.Rank(ep, tools), d.Rank(ep, tools))
}

// A new task starts at Start: its first suggestion is what earlier tasks
// did first, whatever tool the previous task ended on.
func TestTaskStartsAtStart(t *testing.T) {
	m := New(DefaultParams)
	for range 3 {
		play(m, "", nil, "a", true, "b", true, "e", true)
	}
	ep := NewEpisode("", nil)
	require.Equal(t, Start, ep.Prev)
	require.Equal(t, "a", top(m, ep))
}

// The task id tells apart two tasks whose words are the same.
func TestTaskIdentity(t *testing.T) {
	m := New(DefaultParams)
	words := []string{"book", "flight"}
	for range 2 {
		play(m, "1", words, "a", true)
		play(m, "2", words, "c", true)
	}
	require.Equal(t, "a", top(m, NewEpisode("1", words)))
	require.Equal(t, "c", top(m, NewEpisode("2", words)))
}

// Terms are exact keys: evidence under one term never moves a context
// that does not have it, and the distinctive term decides at a shared
// start.
func TestExactTerms(t *testing.T) {
	m := New(DefaultParams)
	for range 3 {
		play(m, "", []string{"fix", "please"}, "b", true)
		play(m, "", []string{"price", "please"}, "d", true)
	}
	require.Equal(t, "b", top(m, NewEpisode("", []string{"fix", "please"})))
	require.Equal(t, "d", top(m, NewEpisode("", []string{"price", "please"})))
	before := m.Rank(NewEpisode("", []string{"unseen"}), tools)
	play(m, "", []string{"other"}, "e", true)
	after := m.Rank(NewEpisode("", []string{"unseen"}), tools)
	// "other" teaches the start (every context) but no term of "unseen".
	require.Equal(t, len(before), len(after))
	require.NotContains(t, fmt.Sprint(m.Records()), "w\x1funseen")
}

// After a failed call, the agent's next success is learned from where it
// was (MoveOnFailure false), or from the state after the failed tool
// (MoveOnFailure true, and with MarkFailed a state of its own: never as a
// move from the tool), and the episode stays where the agent was.
func TestCreditAfterFailure(t *testing.T) {
	p := DefaultParams
	p.MoveOnFailure = false
	m := New(p)
	ep := play(m, "", nil, "c", false, "a", true)
	require.Equal(t, "a", ep.Prev)
	require.Equal(t, Start, ep.Prev2)
	require.Equal(t, 1.0, m.succ(m.tables[keyPrev(Start)], "a"))
	require.Nil(t, m.tables[keyPrev("c")])

	p.MoveOnFailure, p.MarkFailed = true, false
	m = New(p)
	play(m, "", nil, "c", false, "a", true)
	require.Equal(t, 1.0, m.succ(m.tables[keyPrev("c")], "a"))

	m = New(DefaultParams)
	ep = NewEpisode("", nil)
	m.Learn(ep, "c", false)
	require.Equal(t, Start, ep.At)
	m.Learn(ep, "a", true)
	require.Equal(t, "a", ep.At)
	require.Nil(t, m.tables[keyPrev("c")])
	require.Equal(t, 1.0, m.succ(m.tables[keyPrev("c!")], "a"))
}

// A tool that failed twice in the episode drops from the top.
func TestFailedTwiceDrops(t *testing.T) {
	m := New(DefaultParams)
	for range 5 {
		play(m, "", nil, "a", true)
	}
	ep := NewEpisode("", nil)
	require.Equal(t, "a", top(m, ep))
	m.Learn(ep, "a", false)
	m.Learn(ep, "a", false)
	require.Equal(t, 2, ep.Failed("a"))
	require.NotEqual(t, "a", top(m, ep))
}

// MaxKeys bounds the state whatever the history.
func TestBounded(t *testing.T) {
	p := DefaultParams
	p.MaxKeys = 64
	m := New(p)
	for e := range 200 {
		play(m, fmt.Sprint(e), []string{fmt.Sprint("t", e), fmt.Sprint("u", e)}, "a", true, "b", e%2 == 0)
		require.LessOrEqual(t, m.Keys(), 64)
	}
}

func TestParseParams(t *testing.T) {
	p, err := ParseParams(DefaultParams, "task=0.2, move=0,maxkeys=10")
	require.NoError(t, err)
	require.Equal(t, 0.2, p.Task)
	require.False(t, p.MoveOnFailure)
	require.Equal(t, 10, p.MaxKeys)
	q, err := ParseParams(Params{}, p.String())
	require.NoError(t, err)
	require.Equal(t, p, q)
	_, err = ParseParams(DefaultParams, "nope=1")
	require.Error(t, err)
	_, err = ParseParams(DefaultParams, "task")
	require.Error(t, err)
}

// A record of any bytes never panics a model that reads it: a damaged
// record is an error (Model.Err), and the model ranks as without it.
func FuzzRecord(f *testing.F) {
	m := New(DefaultParams)
	play(m, "1", []string{"x"}, "a", true, "b", false)
	for _, r := range m.Records() {
		f.Add(r.Key, r.Value)
	}
	f.Add(keyPrev(Start), []byte(`{"to":{"a":[1]}}`))
	f.Fuzz(func(t *testing.T, key string, value []byte) {
		d := Open(DefaultParams, MapStore{key: value}, Globals{Beta: 0.5})
		ep := NewEpisode("1", []string{"x"})
		d.Rank(ep, tools)
		d.Observe(ep, tools, "a", 1, 1, true)
		for _, r := range d.Changes(true) {
			require.True(t, json.Valid(r.Value), "%s", r.Value)
		}
	})
}

// An episode writes back as it reads.
func TestEpisodeJSON(t *testing.T) {
	m := New(DefaultParams)
	ep := play(m, "T", []string{"w", "x"}, "a", true, "b", false, "b", false)
	raw := ep.AppendJSON(nil)
	d, err := DecodeEpisode(raw)
	require.NoError(t, err)
	require.Equal(t, string(raw), string(d.AppendJSON(nil)))
	require.Equal(t, "a", d.At)
	require.Equal(t, "b!", d.Prev)
	require.Equal(t, 2, d.Failed("b"))
	_, err = DecodeEpisode([]byte(`{"task":"x"}`))
	require.Error(t, err)
}

// A step taken on the model's own advice teaches its success but is not
// counted as what agents do next: the first lucky step cannot count for
// itself and lock itself in.
func TestAdvisedStepsAreNotFrequencies(t *testing.T) {
	m := New(DefaultParams)
	ep := NewEpisode("", nil)
	m.Observe(ep, nil, "c", 1, 1, false)
	require.Nil(t, m.tables[keyPrev(Start)])
	z, _ := m.logit(NewEpisode("", nil), "c")
	require.Greater(t, z, 0.0)
	m.Observe(NewEpisode("", nil), nil, "a", 1, 1, true)
	require.Equal(t, 1.0, m.succ(m.tables[keyPrev(Start)], "a"))
}

// The frequencies' weight follows how well they predict the agent's own
// calls: up when the agent does what others did, down when its own calls
// are ones the frequencies did not predict.
func TestHedge(t *testing.T) {
	m := New(DefaultParams)
	for range 20 {
		ep := NewEpisode("", nil)
		m.Rank(ep, tools)
		m.Observe(ep, nil, "a", 1, 1, true)
	}
	require.Greater(t, m.beta, 0.9)
	for i := range 60 {
		ep := NewEpisode("", nil)
		m.Rank(ep, tools)
		m.Observe(ep, nil, tools[1+i%4], 1, 1, true) // anything but what the counts say
	}
	require.Less(t, m.beta, 0.5)
}

// Eviction keeps the keys that tell tasks apart: a task seen once keeps its
// first step through a flood of calls that only repeat what every context
// says (which evicting by outcome count or by age would drop first).
func TestEvictionKeepsTaskKeys(t *testing.T) {
	p := DefaultParams
	p.MaxKeys = 16
	m := New(p)
	play(m, "T", nil, "e", true)
	for i := range 200 {
		play(m, "", []string{"common", fmt.Sprint("w", i)}, "a", true)
	}
	require.NotNil(t, m.tables[keyTask("T", Start)])
	require.Equal(t, "e", top(m, NewEpisode("T", nil)))
}

// ParseParams never panics, and what it accepts prints in a form it reads.
func FuzzParseParams(f *testing.F) {
	f.Add("task=0.5,move=1,maxkeys=10")
	f.Add("hedge=0,freq=1,lr=0")
	f.Add("=,,")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseParams(DefaultParams, s)
		if err != nil {
			return
		}
		_, err = ParseParams(Params{}, p.String())
		require.NoError(t, err)
	})
}

// A model over a store writes a key the store lacks whole and any other
// as a merge of what changed; applied in order, the store holds what the
// model holds in memory, and a model opened over it ranks the same.
func TestChangesMerge(t *testing.T) {
	st := MapStore{}
	mem := New(DefaultParams)
	g := Globals{Beta: 0.5}
	r := rand.New(rand.NewPCG(5, 27))
	for e := range 30 {
		ep := NewEpisode(fmt.Sprint(e%4), []string{"w" + fmt.Sprint(e%3)})
		epm := NewEpisode(fmt.Sprint(e%4), []string{"w" + fmt.Sprint(e%3)})
		for range 4 {
			m := Open(DefaultParams, st, g)
			to, ok := tools[r.IntN(len(tools))], r.Float64() < 0.8
			require.Equal(t, mem.Rank(epm, tools), m.Rank(ep, tools))
			m.Learn(ep, to, ok)
			mem.Learn(epm, to, ok)
			ch := m.Changes(true)
			merges := 0
			for _, c := range ch {
				if c.Merge {
					merges++
				}
			}
			if e > 5 {
				require.Positive(t, merges)
			}
			st.Put(ch)
			g = m.Globals()
		}
	}
	for _, rec := range mem.Records() {
		require.JSONEq(t, string(rec.Value), string(st[rec.Key]), rec.Key)
	}
}

// The explanation names the evidence the ranking rests on: at a start
// every kind of task shares, the counts of tasks whose context has the
// distinctive word, not the pooled ones; the word whose tasks took the
// step most consistently; the state's counts where no word has any.
func TestExplainTerms(t *testing.T) {
	m := New(DefaultParams)
	for range 3 {
		play(m, "", []string{"fix", "please"}, "b", true, "c", true)
		play(m, "", []string{"price", "please"}, "d", true)
	}
	ep := NewEpisode("", []string{"fix", "please"})
	require.Equal(t, "b", top(m, ep))
	ev := m.Explain(ep, "b")
	require.Equal(t, Evidence{Level: "term", Term: "fix", Next: 3, Of: 3, Successes: 3, P: ev.P, SD: ev.SD}, ev)
	// "please" has b 3 of 6; "fix" 3 of 3.
	ev = m.Explain(NewEpisode("", []string{"please"}), "b")
	require.Equal(t, [3]any{"term", "please", int64(3)}, [3]any{ev.Level, ev.Term, ev.Next})
	require.Equal(t, int64(6), ev.Of)
	// No word of this context was ever counted: the state's counts.
	ev = m.Explain(NewEpisode("", []string{"unseen"}), "b")
	require.Equal(t, [4]any{"state", "", int64(3), int64(6)}, [4]any{ev.Level, ev.Term, ev.Next, ev.Of})
	// A task's own counts come first.
	play(m, "t", []string{"fix"}, "d", true)
	ev = m.Explain(NewEpisode("t", []string{"fix"}), "d")
	require.Equal(t, [3]any{"task", int64(1), int64(1)}, [3]any{ev.Level, ev.Next, ev.Of})
}

// One call under a rare word does not outweigh a consistent common one.
func TestExplainTermsSmoothed(t *testing.T) {
	m := New(DefaultParams)
	for i := range 12 {
		if i < 9 {
			play(m, "", []string{"fix"}, "b", true)
		} else {
			play(m, "", []string{"fix"}, "c", true)
		}
	}
	play(m, "", []string{"emails"}, "b", true)
	ev := m.Explain(NewEpisode("", []string{"emails", "fix"}), "b")
	require.Equal(t, [3]any{"fix", int64(9), int64(12)}, [3]any{ev.Term, ev.Next, ev.Of})
}
