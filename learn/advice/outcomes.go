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

// StepOutcomes is what a v5 model m learnt of reaching each capability,
// in every state and task: its successes and outcomes, which coverage
// counts as the capability's experience.
func StepOutcomes(m *nextstep.Model) func(to string) (succ, n float64) {
	return func(to string) (succ, n float64) {
		k, f := m.Outcomes(to)
		return float64(k), float64(k + f)
	}
}
