package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/phrase"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var resumeSpec = Spec{
	Op:  contract.Resume,
	run: opResume,
}

// opResume briefs the agent at the start of a session: where it is, how
// healthy, what it learned, what is open, and what to do first.
func opResume(s *session, _ Call) (pyjson.Value, error) {
	anns, err := s.annotations()
	if err != nil {
		return pyjson.Value{}, err
	}
	e := s.engine
	b := history.Briefing{Engine: e, Wormholes: relevance.Enrich(e, anns, torusfield.KindWormhole, 5),
		Attractors: relevance.Enrich(e, anns, torusfield.KindAttractor, 3), Resonances: relevance.Enrich(e, anns, torusfield.KindResonance, 3)}
	unannotated, err := s.unannotated()
	if err != nil {
		return pyjson.Value{}, err
	}
	b.Unannotated = len(unannotated)
	if b.OpenQuestions, err = relevance.OpenQuestions(s.ws, openQuestionsResume, false); err != nil {
		return pyjson.Value{}, fault.Internal(err, "list working state")
	}
	if b.Methodology, err = s.window(workspace.RelMethodology, 5); err != nil {
		return pyjson.Value{}, err
	}
	if b.Trend, err = history.ReadTrend(s.tx); err != nil {
		return pyjson.Value{}, err
	}
	b.LastSynthesis = phrase.RunePrefix(history.LastSynthesis(s.ws), 300)
	b.Recommendations = history.Recommendations(b.Unannotated, s.meta.LastSynthesisDate, s.now, b.Trend)
	if b.Goals, err = s.goals(); err != nil {
		return pyjson.Value{}, err
	}
	return pyjson.Obj(pyjson.KV("status", "resumed"), pyjson.KV("session_briefing", b.Value())), nil
}
