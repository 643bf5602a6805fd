package learn

import (
	"slices"

	"github.com/unified-cognitive-substrate/ucs/outcome"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// NextSteps lists the next steps a model ranks from a capability of a
// graph: its edges, with their prior (u − c), the capability itself when
// the manifest connects it to itself (the graph drops self-loops, but a
// tool an agent runs twice in a row — tests again after a fix — is a next
// step), then the transitions reports taught the model that the manifest
// lacks.
func NextSteps(g *torusfield.Graph, man *torusfield.Manifest, m *Model, from string) []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	for _, ei := range g.Out(from) {
		edge := g.Edges[ei]
		if !seen[edge.Dst] {
			seen[edge.Dst] = true
			out = append(out, Candidate{To: edge.Dst, Prior: edge.U - edge.C})
		}
	}
	if prior, ok := selfLoop(man, from); ok && !seen[from] {
		seen[from] = true
		out = append(out, Candidate{To: from, Prior: prior})
	}
	for _, to := range m.Discovered(from) {
		if !seen[to] {
			seen[to] = true
			out = append(out, Candidate{To: to})
		}
	}
	return out
}

// selfLoop returns the prior (u − c) of a capability's edge to itself, and
// whether the manifest lists it in its own connects_to (by name).
func selfLoop(man *torusfield.Manifest, c string) (float64, bool) {
	i := man.Index(c)
	if i < 0 {
		return 0, false
	}
	capa := man.Capabilities[i]
	if !slices.Contains(capa.ConnectsTo, c) {
		return 0, false
	}
	return capa.U - capa.C, true
}

// StepPrior returns the prior (u − c) of the step from → to on a graph:
// its edge's, or the capability's own when the step is a self-loop the
// manifest lists. A step the manifest lacks has prior 0 and is
// discovered.
func StepPrior(g *torusfield.Graph, man *torusfield.Manifest, from, to string) (prior float64, discovered bool) {
	if ei := g.Find(from, to); ei >= 0 {
		edge := g.Edges[ei]
		return edge.U - edge.C, false
	}
	if p, ok := selfLoop(man, from); ok && to == from {
		return p, false
	}
	return 0, true
}

// RankNextSteps ranks the next steps from a capability (NextSteps) in a
// context, with a dead end's penalty (in log-odds, subtracted from the
// score) on the capabilities it names, best first. explore adds the
// optimism that makes an agent that follows the top step try what is
// little known; without it the ranking is the model's best estimate.
func RankNextSteps(g *torusfield.Graph, man *torusfield.Manifest, m *Model, ctx Context, from string, penalty map[string]float64, explore bool) []Estimate {
	ranked := m.Rank(ctx, from, NextSteps(g, man, m, from), explore)
	for i := range ranked {
		if p := penalty[ranked[i].To]; p > 0 {
			ranked[i].Score -= p
		}
	}
	SortEstimates(ranked)
	return ranked
}

// Teach teaches a model the outcome of the step from → to on a graph (a
// report's success word, counted weight times) in a context: the step's
// prior is StepPrior's, and a step the manifest lacks is discovered. It
// returns the estimates before and after, and whether the step is
// discovered.
func Teach(g *torusfield.Graph, man *torusfield.Manifest, m *Model, ctx Context, from, to, success string, weight float64, clock int64) (before, after Estimate, discovered bool) {
	return teach(g, man, m, ctx, from, to, success, weight, clock, false)
}

// Reteach teaches the state's model a past report's step from → to again,
// as a rating or an amendment does: in the context of the report's terms,
// after the capability the report recorded when the state keeps the
// trail. With retract it takes the outcome back instead, so a corrected
// one can replace it. It returns the estimates before and after.
func (s *State) Reteach(g *torusfield.Graph, man *torusfield.Manifest, terms []string, came, from, to, success string, weight float64, clock int64, retract bool) (before, after Estimate) {
	ctx := Context{Terms: terms}
	if s.KeepsTrail() {
		ctx.After = came
	}
	before, after, _ = teach(g, man, s.Model, ctx, from, to, success, weight, clock, retract)
	return before, after
}

// teach is Teach, or with retract its taking back.
func teach(g *torusfield.Graph, man *torusfield.Manifest, m *Model, ctx Context, from, to, success string, weight float64, clock int64, retract bool) (before, after Estimate, discovered bool) {
	y, w := OutcomeValue(success)
	w *= weight
	prior, discovered := StepPrior(g, man, from, to)
	before, after = m.Update(ctx, from, to, prior, Outcome{Success: y, Weight: w, Clock: clock, Discovered: discovered, Retract: retract})
	return before, after, discovered
}

// OutcomeValue is what a report's success word teaches: the success value
// and how much it counts (outcome.Status.Learning). The word is taken as
// spelled: "neutral" (the agent only says where it is), and any other
// word, teaches nothing.
func OutcomeValue(success string) (y, weight float64) {
	return outcome.Status(success).Learning()
}
