package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Tuning of the bridge, the reference's defaults.
const (
	consultWarmup        = 15   // θ-step warm-up of the energy field on consult
	contextDiffusion     = 5    // diffusion steps of context energy: min(15, 5)
	consultMagnitude     = 1.5  // context energy per resolved capability
	reportMagnitude      = 1.0  // energy injected at a reported action
	advisoryTopN         = 6    // suggested paths per consult
	recentForVocabulary  = 20   // recent methodology entries that enrich capability resolution
	openQuestionsConsult = 500  // characters of open questions a consult shows
	openQuestionsResume  = 1000 // characters of open questions a resume shows
)

var consultSpec = Spec{
	Op:       contract.Consult,
	readOnly: positioned,
	run:      opConsult,
}

// opConsult advises before an action (consultSpec's arguments): the
// engine's routing and the learned suggestions, with what the workspace
// knows about the context (package relevance).
func opConsult(s *session, c Call) (pyjson.Value, error) {
	context, task, greedy := c.Args.StrOf("context"), c.Args.StrOf("task"), argBool(c, "greedy")
	from, positioned := position(c)
	if err := s.place().CheckPosition(s.meta.Model, c.Args.StrOf("from"), argBool(c, "task_start")); err != nil {
		return pyjson.Value{}, err
	}
	e := s.engine
	kw := relevance.NewKeywords(s.manifest)
	resolved, err := s.taskCapabilities(c, kw)
	if err != nil {
		return pyjson.Value{}, err
	}
	ctxEnergy := e.PrepareContextEnergy(resolved, consultMagnitude, contextDiffusion)
	if !positioned { // advice at a position is a look, not a step of the engine
		e.Warm(consultWarmup)
	}
	anns, err := s.annotations()
	if err != nil {
		return pyjson.Value{}, err
	}
	wormholes := relevance.Enrich(e, anns, torusfield.KindWormhole, 5)
	attractors := relevance.Enrich(e, anns, torusfield.KindAttractor, 3)

	cursor := e.Cursor.Node
	switch {
	case positioned:
		cursor = from
	case s.model.NextSteps():
		// Where the agent is in the task (v5): its last step that
		// succeeded, "" at the task's start.
		v, err := s.steps()
		if err != nil {
			return pyjson.Value{}, err
		}
		cursor = v.TaskEpisode(task, context).At
	}
	q := s.knowledge().Query(context, resolved)
	kc, deadHits, penaltyOrder, penalty, err := s.consultDeadEnds(context, q, kw)
	if err != nil {
		return pyjson.Value{}, err
	}
	ctxMap := relevance.EnergyMap(ctxEnergy)
	var top []pyjson.Value
	var advisoryID string
	switch {
	case positioned:
		top, _, err = s.adviceAt(task, context, from, ctxMap, penalty, greedy)
	case s.model.NextSteps():
		top, advisoryID, err = s.suggestSteps(task, context, penalty, greedy)
	case s.model.Learns():
		top, advisoryID, err = s.suggestLearned(context, penalty, !greedy)
	default:
		top = allowedPaths(s, relevance.ScorePaths(e, anns, cursor, ctxMap, penalty))
		top = top[:min(advisoryTopN, len(top))]
	}
	if err != nil {
		return pyjson.Value{}, err
	}
	q.Routing = relevance.RoutingSnapshot(e, cursor, top, ctxEnergy, wormholes, attractors)
	q.Max = relevance.MaxMethodologyHits
	methHits, judgmentHits, deadOut := kc.Methodology, kc.Judgment, kc.DeadEnds
	if !s.model.GovernsKnowledge() {
		if methHits, judgmentHits, deadOut, err = s.knowledge().Reference(q, deadHits, judgmentWindow); err != nil {
			return pyjson.Value{}, err
		}
	}
	openQ, err := relevance.OpenQuestions(s.ws, openQuestionsConsult, true)
	if err != nil {
		return pyjson.Value{}, internal(err, "list working state")
	}
	unannotated, err := s.unannotated()
	if err != nil {
		return pyjson.Value{}, err
	}
	out := relevance.Advice{Cursor: cursor, Resolved: resolved, Suggested: top, Wormholes: wormholes, Attractors: attractors,
		Methodology: methHits, DeadEnds: deadOut, Judgment: judgmentHits, PenaltyOrder: penaltyOrder, Penalty: penalty,
		PPHealth: e.PP.Health(), Unannotated: len(unannotated), OpenQuestions: openQ, Context: ctxEnergy}.Members()
	if advisoryID != "" {
		out = append(out, pyjson.KV("advisory_id", advisoryID), pyjson.KV("model", s.meta.Model))
	}
	if task != "" && s.model.NextSteps() {
		out = append(out, pyjson.KV("task", task))
	}
	if s.decisions.LeftOut != nil {
		out = append(out, pyjson.KV("left_out_by_policy", s.decisions.LeftOut))
	}
	if s.model.GovernsKnowledge() {
		obs, err := s.observationContext(context)
		if err != nil {
			return pyjson.Value{}, err
		}
		out = append(out, pyjson.KV("left_out", kc.LeftOut), pyjson.KV("observations", obs))
		s.rememberContext(advisoryID, obs)
	}
	if want := c.Args.StrsOf("fields"); len(want) > 0 {
		return relevance.Pick(out, want), nil // the spec's check refused any other name
	}
	return pyjson.ObjectValue(out), nil
}

// consultDeadEnds finds the dead ends that fit a consult's context
// (relevance.Source.DeadEndHits) and the penalty they put on capabilities,
// in the order first penalised: v5's on those they name
// (advice.Place.DeadEndPenalty), the engine's on those their keywords
// evoke too (relevance.PenaltyEnergy).
func (s *session) consultDeadEnds(context string, q knowledge.Query, kw *relevance.Keywords) (relevance.Context, []knowledge.DeadEndHit, []string, map[string]float64, error) {
	kc, hits, penalising, err := s.knowledge().DeadEndHits(context, q, s.model.GovernsKnowledge())
	var order []string
	var penalty map[string]float64
	switch {
	case err != nil:
	case s.model.NextSteps():
		order, penalty = s.place().DeadEndPenalty(penalising)
	default:
		order, penalty = relevance.PenaltyEnergy(s.manifest, kw, penalising)
	}
	return kc, hits, order, penalty, err
}

// taskCapabilities are the capabilities a call's task uses: those its
// "context" evokes and those its "capabilities" name (a name the manifest
// lacks is ignored, with a warning), as consult and coverage resolve them.
func (s *session) taskCapabilities(c Call, kw *relevance.Keywords) ([]string, error) {
	explicit := c.Args.StrsOf("capabilities")
	for _, name := range explicit {
		if !s.manifest.Has(name) {
			s.warn(unknownCapability(s, name, "ignored"))
		}
	}
	recent, err := s.window(relMethodology, recentForVocabulary)
	if err != nil {
		return nil, err
	}
	return relevance.ResolveCapabilities(s.manifest, kw, c.Args.StrOf("context"), explicit, recent), nil
}

// unknownCapability is the warning for a capability name the manifest lacks.
func unknownCapability(s *session, name, what string) string {
	return "unknown capability " + pyjson.Quote(name) + " " + what + "; " + s.manifest.Near(name)
}
