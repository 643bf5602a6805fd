package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// deadEndPenalty is a v5 consult's penalty of matched dead ends
// (advice.Place.DeadEndPenalty): on the capabilities they name, never on
// those their keywords evoke.
func deadEndPenalty(s *session, hits []knowledge.DeadEndHit) penalty {
	order, energy := s.place().DeadEndPenalty(hits)
	return penalty{order: order, energy: energy}
}

// suggestSteps is a v5 consult's advice for a task and context, with a
// dead end's penalty on the capabilities it names, remembered for
// attribution (advice.Advisor.SuggestSteps).
func (s *session) suggestSteps(task, context string, penalty map[string]float64, greedy bool) ([]pyjson.Value, string, error) {
	v, err := s.steps()
	if err != nil {
		return nil, "", err
	}
	m := s.stepsModel(v)
	out, id := s.advisor().SuggestSteps(v, m, task, context, penalty, greedy)
	return out, id, modelErr(m)
}
