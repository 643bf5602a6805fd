package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Tuning of the bridge, the reference's defaults.
const (
	consultWarmup        = 15   // θ-step warm-up of the energy field on consult
	reportMagnitude      = 1.0  // energy injected at a reported action
	advisoryTopN         = 6    // suggested paths per consult
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
	from, positioned := c.Args.StrOf("from"), positioned(c)
	if argBool(c, "task_start") {
		from = nextstep.Start // as if the agent began the task (advice.Advisor.AdviseAt)
	}
	if err := s.place().CheckPosition(s.meta.Model, c.Args.StrOf("from"), argBool(c, "task_start")); err != nil {
		return pyjson.Value{}, err
	}
	b, err := s.consultBasis(c)
	if err != nil {
		return pyjson.Value{}, err
	}
	e := s.engine
	if !positioned { // advice at a position is a look, not a step of the engine
		e.Warm(consultWarmup)
	}
	anns, err := s.annotations()
	if err != nil {
		return pyjson.Value{}, err
	}
	lv, m, err := s.models()
	if err != nil {
		return pyjson.Value{}, err
	}
	release := func() {}
	if m != nil { // the fleet's evidence beside the agent's own
		if release, err = s.useFleet(m, c); err != nil {
			return pyjson.Value{}, err
		}
		defer release()
	}
	cursor := e.Cursor.Node
	var top []pyjson.Value
	var advisoryID string
	switch {
	case positioned:
		cursor = from
		top, err = s.adviceAt(task, context, from, b, greedy)
	case m != nil:
		// Where the agent is in its task (v5): its last step that
		// succeeded, "" at the task's start.
		cursor = s.learning.Steps.TaskEpisode(task, context).At
		top, advisoryID = s.advisor().SuggestSteps(s.learning.Steps, m, task, context, b.Penalty, greedy)
		err = modelErr(m)
	case lv != nil:
		top, advisoryID, err = s.suggestLearned(context, b.Penalty, !greedy)
	default:
		top = s.routes(anns, cursor, b)
	}
	release() // the peers' workspaces, held no longer than the ranking
	if err != nil {
		return pyjson.Value{}, err
	}
	a := relevance.Advice{Cursor: cursor, Suggested: top, PPHealth: e.PP.Health(), AdvisoryID: advisoryID, Model: s.meta.Model,
		Wormholes: relevance.Enrich(e, anns, torusfield.KindWormhole, 5), Attractors: relevance.Enrich(e, anns, torusfield.KindAttractor, 3),
		LeftOutByPolicy: s.decisions.LeftOut}
	if err := b.Complete(e, &a, judgmentWindow); err != nil {
		return pyjson.Value{}, err
	}
	if a.OpenQuestions, err = relevance.OpenQuestions(s.ws, openQuestionsConsult, true); err != nil {
		return pyjson.Value{}, fault.Internal(err, "list working state")
	}
	unannotated, err := s.unannotated()
	if err != nil {
		return pyjson.Value{}, err
	}
	a.Unannotated = len(unannotated)
	if s.model.NextSteps() {
		a.Task = task
	}
	if a.Governs {
		if a.Observations, err = s.observationContext(context); err != nil {
			return pyjson.Value{}, err
		}
		s.rememberContext(advisoryID, a.Observations)
	}
	out := a.Members()
	if want := c.Args.StrsOf("fields"); len(want) > 0 {
		return relevance.Pick(out, want), nil // the spec's check refused any other name
	}
	return pyjson.ObjectValue(out), nil
}

// consultBasis reads what a consult call's advice rests on
// (relevance.Source.Basis): its task's capabilities, their energy, the
// dead ends and their penalty.
func (s *session) consultBasis(c Call) (relevance.Basis, error) {
	resolved, err := s.taskCapabilities(c)
	if err != nil {
		return relevance.Basis{}, err
	}
	return s.knowledge().Basis(s.engine, c.Args.StrOf("context"), resolved, s.model, s.place())
}

// taskCapabilities are the capabilities a call's task uses
// (relevance.Source.Resolve): those its "context" evokes and those its
// "capabilities" name (a name the manifest lacks is ignored, with a
// warning), as consult and coverage resolve them.
func (s *session) taskCapabilities(c Call) ([]string, error) {
	explicit := c.Args.StrsOf("capabilities")
	for _, name := range explicit {
		if !s.manifest.Has(name) {
			s.warn(s.manifest.Unknown(name, "ignored"))
		}
	}
	return s.knowledge().Resolve(c.Args.StrOf("context"), explicit)
}
