package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var synthesizeSpec = Spec{
	Op:  contract.Synthesize,
	run: opSynthesize,
}

// opSynthesize gathers the raw material of a periodic synthesis: what the
// agent did since the last one, how it went, what is unexplained or
// misaligned. The agent writes the synthesis itself (reflect type synthesis).
func opSynthesize(s *session, c Call) (pyjson.Value, error) {
	since := s.meta.LastSynthesisDate
	if v := c.Args.StrOf("since"); v != "" || since == "" {
		t, err := history.PeriodStart(v, s.now)
		if err != nil {
			return pyjson.Value{}, err
		}
		since = pyjson.ISOTime(t)
	}
	all, err := s.list(relActionLog)
	if err != nil {
		return pyjson.Value{}, err
	}
	p := history.Period{Since: since, Until: pyjson.ISOTime(s.now), Actions: history.InPeriod(all, since), Engine: s.engine}
	p.Allocations = history.Allocate(p.Actions)
	if p.Methodology, err = s.window(relMethodology, 20); err != nil {
		return pyjson.Value{}, err
	}
	if p.Snapshots, err = s.window(relPPHistory, 5); err != nil {
		return pyjson.Value{}, err
	}
	if p.Trend, err = s.ppTrend(); err != nil {
		return pyjson.Value{}, err
	}
	if p.Wormholes, err = s.enrich(torusfield.KindWormhole, 5); err != nil {
		return pyjson.Value{}, err
	}
	unannotated, err := s.unannotated()
	if err != nil {
		return pyjson.Value{}, err
	}
	p.Unannotated = len(unannotated)
	if p.Overrides, err = s.window(relOverrides, overridesWindow); err != nil {
		return pyjson.Value{}, err
	}
	p.Misalignments = []pyjson.Value{}
	for _, al := range p.Allocations[:min(5, len(p.Allocations))] {
		hits, err := s.methodologyByCaps(knowledge.Query{Capabilities: []string{al.Action},
			Now: s.now, DecayRate: relevance.DecayRate, StructuralWeight: relevance.StructuralWeight, Max: 1})
		if err != nil {
			return pyjson.Value{}, err
		}
		if len(hits) == 0 {
			p.Misalignments = append(p.Misalignments, history.Misalignment(al))
		}
	}
	data := p.Value()
	// Goals closed in the period, when the workspace has goals.
	if gb, err := s.goals(); err != nil {
		return pyjson.Value{}, err
	} else if !gb.Empty() {
		data = data.With("goals", history.ClosedGoals(gb.All(), since))
	}
	// What the agent believes that needs a decision, in a v4 workspace.
	if s.model.GovernsKnowledge() {
		b, err := s.book()
		if err != nil {
			return pyjson.Value{}, err
		}
		data = data.With("observations", belief.Review(b, since, s.now))
	}
	return pyjson.Obj(
		pyjson.KV("synthesis_data", data),
		pyjson.KV("synthesis_prompts", history.Prompts),
	), nil
}
