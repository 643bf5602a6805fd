package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// learnStep teaches a v5 model a report in its task
// (advice.Place.LearnStep) and attributes it to the observations of the
// advice it followed or not. It returns the answer's "learning" member.
func (s *session) learnStep(in reportInput, task string, input pyjson.Value) (pyjson.Value, bool, error) {
	v, err := s.steps()
	if err != nil || v == nil {
		return pyjson.Value{}, false, err
	}
	m := s.stepsModel(v)
	l := s.place().LearnStep(v, m, task, in.Context, input.StrOf("advisory_id"), in.Action, in.Success, in.Weight)
	if l.Step != nil {
		s.learning.StepLearned = l.Step
	}
	if err := modelErr(m); err != nil {
		return pyjson.Value{}, false, err
	}
	return s.attributeLearning(l, in, input)
}

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
