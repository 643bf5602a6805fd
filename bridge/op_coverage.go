package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
)

// coverage tells how ready the memory is for a task before the agent
// starts it (relevance.Coverage). It reads only: no warm-up steps, no
// advisory, nothing journaled.

var coverageSpec = Spec{
	Op:  contract.Coverage,
	run: opCoverage,
}

// opCoverage measures the memory's coverage of a task (coverageSpec):
// the knowledge found as consult finds it, and the outcomes the model
// learnt of the task's capabilities (relevance.Coverage).
func opCoverage(s *session, c Call) (pyjson.Value, error) {
	context := c.Args.StrOf("context")
	resolved, err := s.taskCapabilities(c)
	if err != nil {
		return pyjson.Value{}, err
	}
	found, err := s.knowledge().Found(context, resolved, s.model.GovernsKnowledge(), judgmentWindow)
	if err != nil {
		return pyjson.Value{}, err
	}
	v, m, err := s.models()
	if err != nil {
		return pyjson.Value{}, err
	}
	return relevance.Coverage(context, resolved, found, s.place().Outcomes(v, m, s.engine.Cursor.Node, context)), nil
}
