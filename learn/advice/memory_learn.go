package advice

import (
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// Learn teaches the memory's model m a report's outcome in: v5 in the
// report's task (Place.LearnStep, on sm, the model over the record log),
// v3 and v4 along the agent's trail from before (Place.LearnReport, seq
// the report's event); and keeps what it taught for the action log
// (StepLearned, After). id is the advisory the report names, if any. v3
// is frozen as it shipped: its learning attributes the outcome to no
// advice. The memory holds its model's state decoded (Learned,
// LearnedSteps). The reference's model learns nothing: ok is false.
func (mem *Memory) Learn(p Place, m *Model, sm *nextstep.Model, in outcome.Report, task, id, before string, seq int64) (l Learning, ok bool) {
	switch {
	case m.NextSteps():
		l = p.LearnStep(mem.Steps, sm, task, in.Context, id, in.Action, in.Success, in.Weight)
		if l.Step != nil {
			mem.StepLearned = l.Step
		}
	case m.Learns():
		l = p.LearnReport(mem.State, id, before, in.Context, in.Action, in.Success, in.Weight, seq)
		mem.After = l.After
		if !m.GovernsKnowledge() {
			l.Advisory = nil
		}
	default:
		return Learning{}, false
	}
	return l, true
}
