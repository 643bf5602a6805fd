package relevance

import (
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Tuning of the reference's consult.
const (
	consultMagnitude    = 1.5 // context energy per resolved capability
	contextDiffusion    = 5   // diffusion steps of context energy: min(15, 5)
	recentForVocabulary = 20  // recent methodology entries that enrich capability resolution
)

// A Basis is what a consult's advice for a context rests on, read once:
// the capabilities the context resolves to, the energy they put on the
// engine's field, the query of the knowledge, the dead ends that hold and
// the penalty they put on capabilities. The advice at the agent's place
// and at any position (a task's chain) rank on the same Basis.
type Basis struct {
	Resolved []string
	// Energy is the context's energy on the field
	// (torusfield.Engine.PrepareContextEnergy), and Boost the same by
	// capability (EnergyMap).
	Energy []torusfield.NodeEnergy
	Boost  map[string]float64
	Query  knowledge.Query
	// Found is what a model that governs knowledge (v4 and later) found
	// (Source.Context); DeadEnds the reference's dead-end hits otherwise.
	Found    Context
	DeadEnds []knowledge.DeadEndHit
	// Penalty is the dead ends' penalty by capability, and PenaltyOrder
	// the capabilities in the order first penalised.
	PenaltyOrder []string
	Penalty      map[string]float64

	src     *Source
	governs bool
}

// Resolve finds the capabilities a task touches (ResolveCapabilities),
// enriched by the workspace's newest methodology entries.
func (s *Source) Resolve(context string, explicit []string) ([]string, error) {
	recent, err := s.Tx.Tail(workspace.RelMethodology, recentForVocabulary)
	if err != nil {
		return nil, err
	}
	return ResolveCapabilities(s.Manifest, s.keywords(), context, explicit, recent), nil
}

// Basis reads what a consult of context rests on, for the capabilities it
// resolved to (Resolve): their energy on the engine e's field, and the
// dead ends that fit (Source.DeadEndHits) with their penalty: a model
// that learns tasks' steps (v5) penalises the capabilities they name
// (advice.Place.DeadEndPenalty, on place), the others those their
// keywords evoke too (PenaltyEnergy). The energy is prepared before
// anything moves the engine on.
func (s *Source) Basis(e *torusfield.Engine, context string, resolved []string, model *advice.Model, place advice.Place) (Basis, error) {
	b := Basis{Resolved: resolved, src: s, governs: model.GovernsKnowledge()}
	b.Energy = e.PrepareContextEnergy(resolved, consultMagnitude, contextDiffusion)
	b.Boost = EnergyMap(b.Energy)
	b.Query = s.Query(context, resolved)
	found, hits, penalising, err := s.DeadEndHits(context, b.Query, b.governs)
	if err != nil {
		return Basis{}, err
	}
	b.Found, b.DeadEnds = found, hits
	if model.NextSteps() {
		b.PenaltyOrder, b.Penalty = place.DeadEndPenalty(penalising)
	} else {
		b.PenaltyOrder, b.Penalty = PenaltyEnergy(s.Manifest, s.keywords(), penalising)
	}
	return b, nil
}

// Complete fills in what the basis gives a consult's advice a: the
// resolved capabilities, their energy, the dead ends' penalty and the
// knowledge shown. A model that governs knowledge shows what it found;
// the others the reference's search (Source.Reference) over the newest
// judgmentWindow judgment nodes, matched against the routing snapshot of
// a's cursor, suggestions and artifacts on the engine e.
func (b Basis) Complete(e *torusfield.Engine, a *Advice, judgmentWindow int) (err error) {
	a.Resolved, a.Context, a.PenaltyOrder, a.Penalty = b.Resolved, b.Energy, b.PenaltyOrder, b.Penalty
	a.Governs, a.LeftOut = b.governs, b.Found.LeftOut
	if b.governs {
		a.Methodology, a.Judgment, a.DeadEnds = b.Found.Methodology, b.Found.Judgment, b.Found.DeadEnds
		return nil
	}
	q := b.Query
	q.Routing, q.Max = RoutingSnapshot(e, a.Cursor, a.Suggested, b.Energy, a.Wormholes, a.Attractors), MaxMethodologyHits
	a.Methodology, a.Judgment, a.DeadEnds, err = b.src.Reference(q, b.DeadEnds, judgmentWindow)
	return err
}
