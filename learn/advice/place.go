package advice

import (
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A Place is what a workspace's advice is ranked on: the pinned manifest's
// capabilities and the engine's graph of the steps between them. The
// bridge's session gives it; it changes nothing of either.
type Place struct {
	Graph    *torusfield.Graph
	Manifest *torusfield.Manifest
}

// Prior is the log-odds a step's success starts from: its capability's
// declared utility less its cost (nextstep.Model.Prior).
func (p Place) Prior(to string) float64 {
	if i := p.Manifest.Index(to); i >= 0 {
		return p.Manifest.Capabilities[i].U - p.Manifest.Capabilities[i].C
	}
	return 0
}

// LacksStep reports whether the manifest lacks the step from → to: no
// edge, nor a self-loop its capability lists (learn.StepPrior).
func (p Place) LacksStep(from, to string) bool {
	_, discovered := learn.StepPrior(p.Graph, p.Manifest, from, to)
	return discovered
}

// Candidates lists the steps a v5 model ranks from where the agent is:
// at a task's start every capability (which tool first is what a task's
// start asks), else the manifest's edges from the capability of the
// agent's last successful step (and the capability itself when the
// manifest connects it to itself), then the steps the agent's own calls
// succeeded to from there that the manifest lacks (discovered). Manifest
// order, then discovery's.
func (p Place) Candidates(m *nextstep.Model, at string) (names []string, discovered map[string]bool) {
	if at == nextstep.Start || !p.Manifest.Has(at) {
		return p.Manifest.Names(), nil
	}
	seen := map[string]bool{}
	for _, ei := range p.Graph.Out(at) {
		if to := p.Graph.Edges[ei].Dst; !seen[to] {
			seen[to] = true
			names = append(names, to)
		}
	}
	if !p.LacksStep(at, at) && !seen[at] {
		seen[at] = true
		names = append(names, at)
	}
	for _, c := range m.Successors(at) {
		if c.Successes > 0 && !seen[c.To] && p.Manifest.Has(c.To) {
			seen[c.To] = true
			names = append(names, c.To)
			if discovered == nil {
				discovered = map[string]bool{}
			}
			discovered[c.To] = true
		}
	}
	return names, discovered
}

// HadSuccess reports whether the agent's own calls succeeded from a state
// to a step before: a step the manifest lacks is discovered once.
func HadSuccess(m *nextstep.Model, from, to string) bool {
	for _, c := range m.Successors(from) {
		if c.To == to {
			return c.Successes > 0
		}
	}
	return false
}

// Pairs is what a v5 model learned of each step between capabilities:
// the agent's own steps from each capability, in whole counts, discovered
// when the manifest lacks the step and it succeeded; in manifest order.
// The model's error (nextstep.Model.Err) tells whether it read them all.
func (p Place) Pairs(m *nextstep.Model) []learn.Pair {
	var out []learn.Pair
	for _, from := range p.Manifest.Names() {
		for _, c := range m.Successors(from) {
			if !p.Manifest.Has(c.To) {
				continue
			}
			out = append(out, learn.Pair{From: from, To: c.To, S: float64(c.Successes), N: float64(c.Successes + c.Failures),
				Discovered: c.Successes > 0 && p.LacksStep(from, c.To)})
		}
	}
	return out
}
