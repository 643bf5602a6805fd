package advice

import (
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// LearnedOutcomes is what v learnt of reaching each capability from
// anywhere in the manifest, in the context words (learn.Terms) with the
// agent at cursor: the successes and outcomes coverage counts as a
// capability's experience.
func (p Place) LearnedOutcomes(v *learn.State, cursor, context string) func(to string) (succ, n float64) {
	return func(to string) (succ, n float64) {
		ctx := v.Context(cursor, learn.Terms(context))
		for _, from := range p.Manifest.Names() {
			ev := v.Model.Estimate(ctx, from, to, 0).Evidence
			succ, n = succ+ev.S, n+ev.N
		}
		return succ, n
	}
}

// Outcomes is what a workspace's learning model learnt of reaching each
// capability, which coverage counts as the capability's experience: v5's
// model m (stepOutcomes), else v3's and v4's state v with the agent at
// cursor in the context (LearnedOutcomes); nil when there is neither
// (v2 learns none).
func (p Place) Outcomes(v *learn.State, m *nextstep.Model, cursor, context string) func(to string) (succ, n float64) {
	switch {
	case m != nil:
		return stepOutcomes(m)
	case v != nil:
		return p.LearnedOutcomes(v, cursor, context)
	}
	return nil
}

// stepOutcomes is what a v5 model m learnt of reaching each capability,
// in every state and task: its successes and all its outcomes.
func stepOutcomes(m *nextstep.Model) func(to string) (succ, n float64) {
	return func(to string) (succ, n float64) {
		k, f := m.Outcomes(to)
		return float64(k), float64(k + f)
	}
}
