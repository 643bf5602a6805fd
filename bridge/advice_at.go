package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// position returns where a consult asks from (advice.Advisor.AdviseAt):
// its --from capability, or nextstep.Start with --task-start; positioned
// is false for a consult at the agent's own place.
func position(c Call) (from string, positioned bool) {
	if argBool(c, "task_start") {
		return nextstep.Start, true
	}
	from = c.Args.StrOf("from")
	return from, from != ""
}

// positioned reports whether a consult call asks at a position, and so
// runs read-only (consultSpec.readOnly): a look, not advice given.
func positioned(c Call) bool {
	_, ok := position(c)
	return ok
}

// adviceAt is consult --from's suggested_paths and the names of every
// step ranked, on every model (advice.Advisor.AdviseAt; on v2 the
// engine's paths, scored with the context's energy ctx), with nothing
// remembered.
func (s *session) adviceAt(task, context, from string, ctx, penalty map[string]float64, greedy bool) ([]pyjson.Value, []string, error) {
	switch {
	case s.model.NextSteps():
		v, err := s.steps()
		if err != nil {
			return nil, nil, err
		}
		m := s.stepsModel(v)
		top, names := s.advisor().AdviseAt(m, nil, task, context, from, penalty, greedy)
		if err := modelErr(m); err != nil {
			return nil, nil, err
		}
		return top, names, nil
	case s.model.Learns():
		v, err := s.learned()
		if err != nil {
			return nil, nil, err
		}
		top, names := s.advisor().AdviseAt(nil, v, task, context, from, penalty, greedy)
		return top, names, nil
	}
	paths, err := s.scorePaths(from, ctx, penalty)
	if err != nil {
		return nil, nil, err
	}
	paths = allowedPaths(s, paths)
	return paths[:min(advisoryTopN, len(paths))], advice.Names(paths, pathTo), nil
}

// allowedPaths are the engine's scored paths the policy allows: v2's
// advice, before it is cut to the advisory's length.
func allowedPaths(s *session, paths []pyjson.Value) []pyjson.Value {
	return withoutDenied(s, paths, pathTo)
}

// pathTo is the capability a scored path leads to.
func pathTo(p pyjson.Value) string { return p.StrOf("to") }
