package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// transitions lists what the workspace learned of each step
// (advice.Place.Transitions): a learning model's own counts, else those
// of the action log's last window lines, with the contexts of the
// journal's reports (history.ReportContexts).
func (s *session) transitions(window int, contexts []advice.ReportContext) ([]*learn.Transition, error) {
	v, m, err := s.models()
	if err != nil {
		return nil, err
	}
	learned := s.place().Learned(v, m)
	if err := modelErr(m); err != nil {
		return nil, err
	}
	lines, err := s.window(workspace.RelActionLog, window)
	if err != nil {
		return nil, err
	}
	return s.place().Transitions(learned, lines, contexts), nil
}
