package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// teachStep applies a rating or an amendment of a past v5 report
// (advice.TeachLine): a rating's verdict teaches the step's success at the
// state the report was learned in; an amendment (retract) takes the
// report's count back out.
func (s *session) teachStep(v *advice.Steps, r pastReport, action, success string, weight float64, retract bool) (pyjson.Value, error) {
	m := s.stepsModel(v)
	out := advice.TeachLine(m, r.Line, r.Context, r.From, action, success, weight, retract, r.Retracted)
	if err := modelErr(m); err != nil {
		return pyjson.Value{}, err
	}
	return out, nil
}
