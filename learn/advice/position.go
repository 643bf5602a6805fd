package advice

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/suggest"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// Advice at a position: consult --from CAP ranks the next steps as if the
// agent stood at CAP, and consult --task-start (v5) as if it began the
// task (nextstep.Start). Such advice is a look, not advice given: nothing
// is remembered, so it can be asked anywhere along a task without moving
// what was learned. A task's chain (FollowChain) is made of these answers.

// CheckPosition refuses a position a workspace of the named model cannot
// rank at: from, a capability its manifest lacks (the nearest name is the
// hint), or a task's start on a model that knows no tasks (v2 to v4 rank
// from a capability).
func (p Place) CheckPosition(model string, from string, taskStart bool) error {
	if from != "" && !p.Manifest.Has(from) {
		hint := "--from takes a capability of the manifest"
		if near := suggest.Closest(from, p.Manifest.Names(), 1); len(near) > 0 {
			hint = "did you mean " + pyjson.Quote(near[0]) + "? " + hint
		}
		return fault.BadInput(fault.CodeInvalidValue, hint, "--from names %s, which the manifest lacks", pyjson.Quote(from))
	}
	if taskStart && !LookupModel(model).NextSteps() {
		return fault.Unsupported("--task-start needs a model that learns tasks from their start (v5); this workspace's is %s: use --from CAPABILITY", model)
	}
	return nil
}

// AdviseAt is the advice at a position for a task and context on a
// learning model, best first, and the names of every step ranked (after
// the policy's refusals): v5's on its steps model m, else v3's and v4's on
// their learned state v. penalty is the dead ends' penalty. It remembers
// nothing; the caller reads m.Err.
func (a Advisor) AdviseAt(m *nextstep.Model, v *learn.State, task, context, from string, penalty map[string]float64, greedy bool) ([]pyjson.Value, []string) {
	if m != nil {
		ranked, out := a.AdviseSteps(m, PositionEpisode(task, context, from), context, penalty, greedy)
		return out, Names(ranked, func(r nextstep.Scored) string { return r.To })
	}
	ranked, out := a.AdviseLearned(v, from, context, penalty, !greedy)
	return out, Names(ranked, func(r learn.Estimate) string { return r.To })
}
