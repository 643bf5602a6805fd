package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// Evidence and its weight. An agent's verdict on its own action is the
// weakest evidence there is; an observed result, classified by rules, is
// stronger; an operator's rating the strongest. A report teaches in
// proportion to its evidence's confidence, relative to a self-report's (so
// a plain report teaches what it always did), and 1.5 times more when it
// is goal-directed.
const (
	selfReportConfidence = advice.SelfReportConfidence
	ratingConfidence     = 1.0
)

// observe classifies a report's raw result, when it carries one, and
// decides the report's outcome with it: the observation wins over the
// agent's own verdict, and the answer says when they disagree. It sets
// the input's Success and Weight and returns the answer's "observation"
// member (nothing without a result) and the outcome's status and
// confidence for goals. An expectation the report carries ("expect":
// the step's point was to fail) judges the verdict (Expectation.Judge):
// an expected failure is a success of the step, an unexpected pass is
// neutral, which teaches nothing and spends no goal's retry.
func (s *session) observe(in *reportInput) (member pyjson.Value, status string, confidence float64, err error) {
	status, confidence = in.Success, selfReportConfidence
	if !in.HasResult {
		return pyjson.Value{}, status, confidence, nil
	}
	r, err := outcome.ParseResult(in.Result)
	if err != nil {
		return pyjson.Value{}, "", 0, badInput(fault.CodeInvalidResult, "result takes exit_code, duration_ms, timeout_ms, http_status, stdout_bytes, stderr_tail, error, signal, timed_out", "%v", err)
	}
	d := s.declarations()[in.Action]
	v := outcome.Classify(r, d.Rules)
	// A step whose point is to fail is judged by what it was for
	// (decodeReport checked the expectation).
	x, _ := outcome.ParseExpectation(in.Expect)
	v = x.Judge(r, v)
	learned := v.Status.Learned() // a timeout never fails a goal, but teaches a failure
	members := []pyjson.Member{
		pyjson.KV("status", v.Status.String()), pyjson.KV("confidence", v.Confidence),
		pyjson.KV("rule", v.Rule), pyjson.KV("detail", v.Detail),
	}
	if !x.IsZero() {
		members = append(members, pyjson.KV("expected", x.String()))
	}
	if self := in.Success; outcome.Status(self) != outcome.Neutral {
		agree := outcome.Status(self) == learned
		members = append(members, pyjson.KV("self_report", self), pyjson.KV("agrees", agree))
		if !agree {
			s.warn("the observed outcome (" + v.Status.String() + ", " + v.Rule + ") overrides the reported success " + quote(self))
		}
	}
	in.Success = learned.String()
	in.Weight = v.Confidence / selfReportConfidence
	return pyjson.ObjectValue(members), v.Status.String(), v.Confidence, nil
}
