package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/suggest"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// Advice at a position: consult --from CAP ranks the next steps as if the
// agent stood at CAP, and consult --task-start (v5) as if it began the
// task. Such a consult is a look, not advice given: it runs read-only (no
// warm-up, no advisory remembered, nothing committed or journaled), so an
// agent or a person can ask it anywhere without moving what ucs learned.
// The per-task chain (taskChain) is made of these answers.

// position returns where a consult asks from: its --from capability, or
// nextstep.Start with --task-start; positioned is false for a consult at
// the agent's own place.
func position(c Call) (from string, positioned bool) {
	if argBool(c, "task_start") {
		return nextstep.Start, true
	}
	from = c.Args.StrOf("from")
	return from, from != ""
}

// positioned reports whether a consult call asks at a position, and so
// runs read-only (consultSpec.readOnly).
func positioned(c Call) bool {
	_, ok := position(c)
	return ok
}

// checkPosition refuses a position the workspace cannot rank at: a
// capability its manifest lacks, or a task's start on a model that knows
// no tasks (v2 to v4 rank from a capability).
func (s *session) checkPosition(c Call) error {
	if from := c.Args.StrOf("from"); from != "" && !s.manifest.Has(from) {
		hint := "--from takes a capability of the manifest"
		if near := suggest.Closest(from, s.manifest.Names(), 1); len(near) > 0 {
			hint = "did you mean " + pyjson.Quote(near[0]) + "? " + hint
		}
		return badInput(fault.CodeInvalidValue, hint, "--from names %s, which the manifest lacks", pyjson.Quote(from))
	}
	if argBool(c, "task_start") && !s.model.NextSteps() {
		return unsupported("--task-start needs a model that learns tasks from their start (v5); this workspace's is %s: use --from CAPABILITY", s.meta.Model)
	}
	return nil
}

// adviceAt is the advice at a position for a task and context, best
// first, and the names of every step ranked (after the policy's
// refusals): consult --from's suggested_paths, on every model, with
// nothing remembered. ctx is the context's energy per capability (the
// reference's model scores with it), penalty the dead ends' penalty.
func (s *session) adviceAt(task, context, from string, ctx, penalty map[string]float64, greedy bool) ([]pyjson.Value, []string, error) {
	switch {
	case s.model.NextSteps():
		v, err := s.steps()
		if err != nil {
			return nil, nil, err
		}
		m := s.stepsModel(v)
		ranked, out := s.advisor().AdviseSteps(m, advice.PositionEpisode(task, context, from), context, penalty, greedy)
		if err := modelErr(m); err != nil {
			return nil, nil, err
		}
		return out, advice.Names(ranked, func(r nextstep.Scored) string { return r.To }), nil
	case s.model.Learns():
		v, err := s.learned()
		if err != nil {
			return nil, nil, err
		}
		ranked, out := s.advisor().AdviseLearned(v, from, context, penalty, !greedy)
		return out, advice.Names(ranked, func(r learn.Estimate) string { return r.To }), nil
	}
	paths, err := s.scorePaths(from, ctx, penalty)
	if err != nil {
		return nil, nil, err
	}
	paths = withoutDenied(s, paths, func(p pyjson.Value) string { return p.StrOf("to") })
	return paths[:min(advisoryTopN, len(paths))], advice.Names(paths, func(p pyjson.Value) string { return p.StrOf("to") }), nil
}
