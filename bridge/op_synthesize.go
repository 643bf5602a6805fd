package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
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
	since, err := history.Since(c.Args.StrOf("since"), s.meta.LastSynthesisDate, s.now)
	if err != nil {
		return pyjson.Value{}, err
	}
	p, err := history.ReadPeriod(s.tx, s.engine, since, pyjson.ISOTime(s.now))
	if err != nil {
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
	if p.Overrides, err = s.window(workspace.RelOverrides, overridesWindow); err != nil {
		return pyjson.Value{}, err
	}
	if p.Misalignments, err = s.knowledge().Misalignments(p.Allocations); err != nil {
		return pyjson.Value{}, err
	}
	if p.Goals, err = s.goals(); err != nil {
		return pyjson.Value{}, err
	}
	data := p.Value()
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
