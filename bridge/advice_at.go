package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
)

// positioned reports whether a consult call asks at a position (--from
// or --task-start), and so runs read-only (consultSpec.readOnly): a look,
// not advice given.
func positioned(c Call) bool {
	return argBool(c, "task_start") || c.Args.StrOf("from") != ""
}

// adviceAt is consult --from's suggested_paths on every model
// (advice.Advisor.AdviseAt; on v2 the engine's paths, routes), on the
// consult's basis b, with nothing remembered.
func (s *session) adviceAt(task, context, from string, b relevance.Basis, greedy bool) ([]pyjson.Value, error) {
	v, m, err := s.models()
	switch {
	case err != nil:
		return nil, err
	case v != nil || m != nil:
		top, _ := s.advisor().AdviseAt(m, v, task, context, from, b.Penalty, greedy)
		return top, modelErr(m)
	}
	anns, err := s.annotations()
	if err != nil {
		return nil, err
	}
	return s.routes(anns, from, b), nil
}

// routes is v2's advice from a capability: the engine's paths scored
// with the basis's context energy and penalty (relevance.ScorePaths),
// less what the policy refuses, the first advisoryTopN.
func (s *session) routes(anns map[string]pyjson.Value, from string, b relevance.Basis) []pyjson.Value {
	paths := relevance.ScorePaths(s.engine, anns, from, b.Boost, b.Penalty)
	paths = withoutDenied(s, paths, func(p pyjson.Value) string { return p.StrOf("to") })
	return paths[:min(advisoryTopN, len(paths))]
}
