package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// transitions lists what the workspace learned of each step
// (advice.Place.Transitions): a learning model's own counts, else those
// of the action log's last window lines, with the contexts of the
// journal's reports (history.ReportContexts).
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
	return s.place().Transitions(m, lines, contexts), nil
}
