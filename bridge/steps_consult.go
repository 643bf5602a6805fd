package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// suggestSteps ranks a v5 workspace's next steps for a task and context,
// with a dead end's penalty on the capabilities it names, and remembers
// the advice for attribution. A greedy consult (a probe) ranks by the
// estimate alone: no exploration bonus, no penalty; a report after it is
// the agent's own choice whatever it names.
func (s *session) suggestSteps(task, context string, penalty map[string]float64, greedy bool) ([]pyjson.Value, string, error) {
	v, err := s.steps()
	if err != nil {
		return nil, "", err
	}
	m := s.stepsModel(v)
	out, id := s.advisor().SuggestSteps(v, m, task, context, penalty, greedy)
	return out, id, modelErr(m)
}
