package advice

import (
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// DeadEndPenalty is a v5 consult's penalty of matched dead ends: one unit
// of log-odds per dead end on each capability of the manifest it names,
// and those capabilities in the order first named. Unlike the engine's
// penalty energy, a dead end's keywords evoke nothing: a dead end about
// one tool must not push down the tools its words happen to label.
func (p Place) DeadEndPenalty(hits []knowledge.DeadEndHit) (order []string, energy map[string]float64) {
	energy = map[string]float64{}
	for _, h := range hits {
		seen := map[string]bool{}
		for _, c := range knowledge.Strings(h.Entry, "capabilities") {
			if seen[c] || !p.Manifest.Has(c) {
				continue
			}
			seen[c] = true
			if _, ok := energy[c]; !ok {
				order = append(order, c)
			}
			energy[c]++
		}
	}
	return order, energy
}
