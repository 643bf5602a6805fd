package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// transitions lists what the workspace learned of each step
// (learn.Transitions): a learning model's own counts, else those of the
// action log's last window lines. Contexts and last-seen times come from
// the last window reports (the action log's lines, with contexts, the
// journal's: reportContexts). Ordered by from, then to.
func (s *session) transitions(window int, contexts []advice.ReportContext) ([]*learn.Transition, error) {
	v, err := s.learned()
	if err != nil {
		return nil, err
	}
	var m learn.Learned
	if v != nil {
		m = v.Model
	}
	sv, err := s.steps()
	if err != nil {
		return nil, err
	}
	if sv != nil {
		sm := s.stepsModel(sv)
		pairs := advice.PairList(s.place().Pairs(sm))
		if err := modelErr(sm); err != nil {
			return nil, err
		}
		m = pairs
	}
	lines, err := s.window(relActionLog, window)
	if err != nil {
		return nil, err
	}
	// The journal's reports are the action log's last lines (advice.NewHistory),
	// as the window is: the first context is the line's at
	// total-len(contexts), the window's first line the one at
	// total-len(lines), so the one is the other's at len(lines)-len(contexts).
	offset := len(lines) - len(contexts)
	return learn.Transitions(s.engine.Graph, m, s.place().WindowReports(lines, advice.Texts(contexts), offset)), nil
}
