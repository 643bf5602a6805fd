package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// observe decides a report's outcome with the raw result it carries, when
// it carries one (belief.ObserveResult): it sets the input's Success and
// Weight and returns the answer's "observation" member (nothing without a
// result) and the outcome's status and confidence for goals.
func (s *session) observe(in *outcome.Report) (member pyjson.Value, status string, confidence float64, err error) {
	if !in.HasResult {
		return pyjson.Value{}, in.Success, advice.SelfReportConfidence, nil
	}
	o, err := belief.ObserveResult(in.Result, in.Expect, s.declarations()[in.Action].Rules, in.Success)
	if err != nil {
		return pyjson.Value{}, "", 0, fault.BadInput(fault.CodeInvalidResult, "result takes exit_code, duration_ms, timeout_ms, http_status, stdout_bytes, stderr_tail, error, signal, timed_out", "%v", err)
	}
	v := o.Verdict
	if o.Disagrees {
		s.warn("the observed outcome (" + v.Status.String() + ", " + v.Rule + ") overrides the reported success " + pyjson.Quote(in.Success))
	}
	in.Success = o.Learned.String()
	in.Weight = v.Confidence / advice.SelfReportConfidence
	return o.Member, v.Status.String(), v.Confidence, nil
}
