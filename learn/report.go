package learn

import "github.com/unified-cognitive-substrate/ucs/torusfield"

// A Report is one reported step of an agent's history: from the cursor to
// the action, with the report's success word and evidence weight, the
// context it was made in, its clock (the report's event) and timestamp.
// Context is "" and Clock 0 when the history does not say.
type Report struct {
	From, To, Success string
	Weight            float64
	Context           string
	Clock             int64
	Time              string
}

// Relearn teaches a fresh state of a model with parameters p a history of
// reports on a graph, in order, along the agent's trail (State.Learn). It
// returns the state and how many reports taught it something (a neutral
// one teaches nothing).
func Relearn(g *torusfield.Graph, man *torusfield.Manifest, p Params, reports []Report) (*State, int) {
	s := NewState(New(p))
	learned := 0
	for _, r := range reports {
		s.Learn(g, man, Terms(r.Context), r.From, r.To, r.Success, r.Weight, r.Clock)
		if _, w := OutcomeValue(r.Success); w > 0 {
			learned++
		}
	}
	return s, learned
}
