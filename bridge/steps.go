package bridge

import (
	"errors"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// steps returns a v5 workspace's learned state, decoding it on first
// use; nil for a workspace of another model.
func (s *session) steps() (*advice.Steps, error) {
	v, err := s.learning.LearnedSteps(s.model)
	if err != nil {
		return nil, fault.Corrupt(err, workspace.RelState)
	}
	return v, nil
}

// stepsModel returns the call's model over the record log
// (advice.Steps.Open), with the manifest's priors.
func (s *session) stepsModel(v *advice.Steps) *nextstep.Model {
	return v.Open(*s.model.Steps, s.tx.Record, s.place().Prior)
}

// place is what the call's advice is ranked on: the pinned manifest and
// the engine's graph.
func (s *session) place() advice.Place {
	return advice.Place{Graph: s.engine.Graph, Manifest: s.manifest}
}

// advisor ranks the call's advice (advice.Advisor), less what the
// policy refuses (withoutDenied, which records what it leaves out).
func (s *session) advisor() advice.Advisor {
	allow := func(names []string) []string { return withoutDenied(s, names, func(n string) string { return n }) }
	return advice.Advisor{Place: s.place(), Seq: s.meta.Seq + 1, TopN: advisoryTopN, Allow: allow}
}

// models returns the call's learning model, decoding it on first use: a
// v3 or v4 workspace's learned state v, or a v5 one's model m over the
// record log (stepsModel); neither for v2.
func (s *session) models() (v *learn.State, m *nextstep.Model, err error) {
	if v, err = s.learned(); err != nil {
		return nil, nil, err
	}
	sv, err := s.steps()
	if sv == nil || err != nil {
		return v, nil, err
	}
	return v, s.stepsModel(sv), nil
}

// modelErr is the error the model met reading its evidence, as the
// call's error; nil for no model.
func modelErr(m *nextstep.Model) error {
	if m == nil {
		return nil
	}
	err := m.Err()
	var e *fault.Error
	if err == nil || errors.As(err, &e) {
		return err
	}
	return fault.Corrupt(err, workspace.RelModelLog) // a record that does not decode
}

// prepareSteps queues what the call's model learned (advice.Steps.Changes)
// before the commit writes the state that names it.
func (s *session) prepareSteps() error {
	v := s.learning.Steps
	recs, err := v.Changes()
	if err != nil {
		return modelErr(v.Model) // the model's error as the call's
	}
	if len(recs) > 0 {
		return s.setRecords(v.Generation, recs)
	}
	return nil
}

// setRecords queues what a model changed, for the call's commit to append
// as one line of the record log.
func (s *session) setRecords(generation int64, recs []nextstep.Record) error {
	out := make([]workspace.Record, len(recs))
	for i, r := range recs {
		out[i] = workspace.Record{Key: advice.RecordKey(generation, r.Key), Value: r.Value, Merge: r.Merge}
	}
	return s.tx.SetRecords(out)
}

// teachStep applies a rating or an amendment of a past v5 report
// (advice.TeachLine): a rating's verdict teaches the step's success at the
// state the report was learned in; an amendment (retract) takes the
// report's count back out.
func (s *session) teachStep(v *advice.Steps, r history.Report, action, success string, weight float64, retract bool) (pyjson.Value, error) {
	m := s.stepsModel(v)
	out := advice.TeachLine(m, r.Line, r.Context, r.From, action, success, weight, retract, r.Retracted)
	if err := modelErr(m); err != nil {
		return pyjson.Value{}, err
	}
	return out, nil
}
