package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/phrase"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var resumeSpec = Spec{
	Output:  resumeOutput,
	Name:    "resume",
	Summary: "Session-start briefing: state, health trend, open questions, recommendations",
	Long: `Where the agent is (t, cursor, PP health and trend), its top artifacts, the
open questions of its working state, its recent methodology and what to do
next.`,
	Example: "ucs resume",
	run:     opResume,
}

// opResume briefs the agent at the start of a session: where it is, how
// healthy, what it learned, what is open, and what to do first.
func opResume(s *session, _ Call) (pyjson.Value, error) {
	b := history.Briefing{Engine: s.engine, PP: s.engine.PP.Rounded()}
	var err error
	for _, k := range []struct {
		kind  string
		limit int
		to    *[]pyjson.Value
	}{{torusfield.KindWormhole, 5, &b.Wormholes}, {torusfield.KindAttractor, 3, &b.Attractors}, {torusfield.KindResonance, 3, &b.Resonances}} {
		if *k.to, err = s.enrich(k.kind, k.limit); err != nil {
			return pyjson.Value{}, err
		}
	}
	unannotated, err := s.unannotated()
	if err != nil {
		return pyjson.Value{}, err
	}
	b.Unannotated = len(unannotated)
	if b.OpenQuestions, err = relevance.OpenQuestions(s.ws, openQuestionsResume, false); err != nil {
		return pyjson.Value{}, internal(err, "list working state")
	}
	if b.Methodology, err = s.window(relMethodology, 5); err != nil {
		return pyjson.Value{}, err
	}
	if b.Trend, err = s.ppTrend(); err != nil {
		return pyjson.Value{}, err
	}
	b.LastSynthesis = phrase.RunePrefix(history.LastSynthesis(s.ws), 300)
	b.Recommendations = history.Recommendations(b.Unannotated, s.meta.LastSynthesisDate, s.now, b.Trend)
	briefing := b.Value()
	// Goals, when the workspace has any (a workspace without keeps the
	// reference's answer).
	if gb, err := s.goals(); err != nil {
		return pyjson.Value{}, err
	} else if !gb.Empty() {
		active := gb.Active()
		briefing = briefing.With("active_goals", active)
		if n := len(active.Items()); n > 0 {
			briefing = briefing.With("recommendations", append(b.Recommendations, history.GoalsRecommendation(n)))
		}
	}
	return pyjson.Obj(pyjson.KV("status", "resumed"), pyjson.KV("session_briefing", briefing)), nil
}

// ppTrend is the trend of the ten newest PP snapshots (history.PPTrend).
func (s *session) ppTrend() (string, error) {
	snaps, err := s.window(relPPHistory, 10)
	return history.PPTrend(snaps), err
}

// resumeOutput is the answer of resume.
var resumeOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "\"resumed\""},
	{Name: "session_briefing", Type: field.Object, Always: true, Doc: "where the agent is, its active goals, recent outcomes, and what to do first"},
}
