package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// taskChain follows a task's learned chain (advice.FollowChain), made of
// consult --from's answers for the context, so show, view's data and
// consult agree by construction: from the task's start on v5 (the
// engine's cursor on a model that knows no task's start). It runs on a
// fresh copy of the workspace as the call read it: nothing it ranks
// reaches the session.
func (s *session) taskChain(context string) ([]advice.ChainStep, error) {
	f, err := s.reloaded()
	if err != nil {
		return nil, err
	}
	rank, err := f.positionedRanker(context)
	s.adoptObsCtx(f)
	if err != nil {
		return nil, err
	}
	at := f.engine.Cursor.Node
	if f.model.NextSteps() {
		at = nextstep.Start
	}
	return advice.FollowChain(at, rank)
}

// positionedRanker returns consult --from's ranking for a context (no task
// id, no capabilities named): its suggested_paths at any position, on the
// consult's basis.
func (s *session) positionedRanker(context string) (func(from string) ([]pyjson.Value, error), error) {
	b, err := s.consultBasis(consultCall(context))
	if err != nil {
		return nil, err
	}
	return func(from string) ([]pyjson.Value, error) { return s.adviceAt("", context, from, b, false) }, nil
}

// taskChains are the chains of the n newest tasks of the reports.
func (s *session) taskChains(reports []advice.ReportContext, n int) ([]pyjson.Value, error) {
	out := []pyjson.Value{}
	for _, context := range advice.ChainContexts(advice.Texts(reports), n) {
		steps, err := s.taskChain(context)
		if err != nil {
			return nil, err
		}
		out = append(out, advice.ChainValue(context, steps))
	}
	return out, nil
}
