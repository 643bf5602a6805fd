package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// taskChain follows a task's learned chain (advice.FollowChain), made of
// consult --from's answers for the context (no task id, no capabilities
// named), on one consult basis, so show, view's data and consult agree by
// construction: from the task's start on v5 (the engine's cursor on a
// model that knows no task's start). It runs dry: nothing it ranks
// reaches the session.
func (s *session) taskChain(context string) (chain []advice.ChainStep, err error) {
	err = s.dry(func(f *session) error {
		b, err := f.consultBasis(consultCall(context))
		if err != nil {
			return err
		}
		at := f.engine.Cursor.Node
		if f.model.NextSteps() {
			at = nextstep.Start
		}
		chain, err = advice.FollowChain(at, func(from string) ([]pyjson.Value, error) { return f.adviceAt("", context, from, b, false) })
		return err
	})
	return chain, err
}

// taskChains are the chains of the n newest tasks of the reports
// (advice.Chains).
func (s *session) taskChains(reports []advice.ReportContext, n int) ([]pyjson.Value, error) {
	return advice.Chains(reports, n, s.taskChain)
}
