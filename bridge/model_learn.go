package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// learned returns a v3 or v4 workspace's learned state, decoding it on
// first use; nil for a workspace of another model.
func (s *session) learned() (*learn.State, error) {
	v, err := s.learning.Learned(s.model)
	if err != nil {
		return nil, fault.Corrupt(err, workspace.RelState)
	}
	return v, nil
}

// suggestLearned is a v3 or v4 consult's advice from the cursor, with a
// dead end's penalty (in log-odds) on the capabilities it names,
// remembered for attribution (advice.Advisor.SuggestLearned).
func (s *session) suggestLearned(context string, penalty map[string]float64, explore bool) ([]pyjson.Value, string, error) {
	v, err := s.learned()
	if err != nil {
		return nil, "", err
	}
	out, id := s.advisor().SuggestLearned(v, s.engine.Cursor.Node, context, penalty, explore)
	return out, id, nil
}

// learnOutcome teaches the workspace's model a report's outcome
// (advice.Memory.Learn) and attributes it to the observations of the
// advice it followed or not. It returns the answer's "learning" member,
// or nothing for the reference's model.
func (s *session) learnOutcome(in outcome.Report, before string, input pyjson.Value) (pyjson.Value, bool, error) {
	v, err := s.steps()
	if err != nil {
		return pyjson.Value{}, false, err
	}
	if _, err := s.learned(); err != nil {
		return pyjson.Value{}, false, err
	}
	var sm *nextstep.Model
	if v != nil {
		sm = s.stepsModel(v)
	}
	l, ok := s.learning.Learn(s.place(), s.model, sm, in, input.StrOf("task"), input.StrOf("advisory_id"), before, s.meta.Seq+1)
	if sm != nil {
		if err := modelErr(sm); err != nil {
			return pyjson.Value{}, false, err
		}
	}
	if !ok {
		return pyjson.Value{}, false, nil
	}
	return s.attributeLearning(l, in, input)
}

// attributeLearning finishes a report's "learning" member: a warning for
// an advisory_id that names no recent consult, and the outcome attributed
// to the observations the advice rested on.
func (s *session) attributeLearning(l advice.Learning, in outcome.Report, input pyjson.Value) (pyjson.Value, bool, error) {
	if l.UnknownID {
		s.warn("advisory_id " + pyjson.Quote(input.StrOf("advisory_id")) + " names no recent consult; the report is not attributed")
	}
	if a := l.Advisory; a != nil && l.W > 0 && len(a.Observations) > 0 {
		confidence := min(1, in.Weight*advice.SelfReportConfidence)
		ov, ok, err := s.attributeOutcome(a.Observations, in.Action, l.Y, confidence, belief.OutcomeKind(in.HasResult), "", s.meta.Seq+1)
		if err != nil {
			return pyjson.Value{}, false, err
		}
		if ok {
			l.Members = append(l.Members, pyjson.KV("observations", ov))
		}
	}
	return pyjson.ObjectValue(l.Members), true, nil
}

// precision is how a learning model's advice fared
// (advice.Memory.Precision); nil for the reference's model.
func (s *session) precision() (any, error) {
	if _, err := s.steps(); err != nil {
		return nil, err
	}
	if _, err := s.learned(); err != nil {
		return nil, err
	}
	return s.learning.Precision(s.model), nil
}
