package learnbench

import (
	"math/rand/v2"

	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// The policy "next@C" is the next-step predictor of package nextstep
// (the v5 candidate) in memory: it ranks the current tool's
// out-neighbours by the probability that the next successful call is each,
// with the predictor's exploration bonus, and learns every reported
// outcome. It is told no task id (a sentence never repeats here): the
// context's terms must carry the task. The trail follows where the agent
// is (an agent knows which tool it is at) and, at a tool the task uses
// twice in a row, the reported success of the repeat (as v4's trail does).
type nextPolicy struct {
	w          *World
	m          *nextstep.Model
	ep         *nextstep.Episode
	compliance float64
	r          *rand.Rand
	prev2, cur string
	repeated   bool // the last step was reported a success of the tool the agent was at
	advised    bool // the last step was the model's first suggestion
	// fleet, when set, is the other agents' evidence (nextstep.Pooled over
	// their models), read afresh at each choice as they learn.
	fleet nextstep.Store
}

func (p *nextPolicy) Begin(st *State) error {
	p.ep = nextstep.NewEpisode("", learn.Terms(st.Context))
	p.prev2, p.cur, p.repeated = nextstep.Start, st.Cur, false
	return nil
}

func (p *nextPolicy) Choose(st *State) (string, error) {
	if st.Cur != p.cur || p.repeated {
		p.prev2, p.cur = p.cur, st.Cur
	}
	p.ep.Locate(p.prev2, p.cur)
	follow := p.compliance >= 1 || p.r.Float64() < p.compliance
	if p.fleet != nil {
		p.m.SetFleet(p.fleet) // what the peers learned since the last choice
	}
	ranked := p.m.Rank(p.ep, st.Out) // also when the agent does not follow: what it predicted is learned from
	p.advised = follow && len(ranked) > 0
	if p.advised {
		return ranked[0].To, nil
	}
	return randomOf(st.Out, p.r), nil
}

func (p *nextPolicy) Observe(st *State, action string, reported bool) error {
	p.repeated = reported && action == st.Cur
	p.m.Observe(p.ep, nil, action, b2f(reported), 1, !p.advised)
	return nil
}

func (p *nextPolicy) Close() error { return nil }

// Probe ranks greedily at each query's position (the chain's previous
// tool, or the start), on an episode of its own: nothing is learned.
func (p *nextPolicy) Probe(qs []ProbeQuery) ([][]string, error) {
	out := make([][]string, len(qs))
	for i, q := range qs {
		ep := nextstep.NewEpisode("", learn.Terms(q.Context))
		prev2 := q.Prev
		if prev2 == "" {
			prev2 = nextstep.Start
		}
		ep.Locate(prev2, q.Cur)
		for _, r := range p.m.Greedy(ep, p.w.Out(q.Cur)) {
			out[i] = append(out[i], r.To)
		}
	}
	return out, nil
}

func b2f(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}
