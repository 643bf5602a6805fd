package relevance

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
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

// Knowledge is the methodology, judgment and dead ends a consult shows:
// what a model that governs knowledge found, else the reference's search
// (Source.Reference) of the query with the advice's routing snapshot,
// over the newest judgmentWindow judgment nodes.
func (b Basis) Knowledge(routing pyjson.Value, judgmentWindow int) (methodology, judgment, deadEnds []pyjson.Value, err error) {
	if b.governs {
		return b.Found.Methodology, b.Found.Judgment, b.Found.DeadEnds, nil
	}
	q := b.Query
	q.Routing, q.Max = routing, MaxMethodologyHits
	return b.src.Reference(q, b.DeadEnds, judgmentWindow)
}
