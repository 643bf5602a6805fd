package advice

import "github.com/unified-cognitive-substrate/ucs/learn"

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
