package belief

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// Observed is a report's outcome as ucs observed it: the raw result the
// report carries, classified by its capability's rules (outcome.Classify)
// and judged by what the step expected (outcome.Expectation.Judge). What
// was observed wins over the agent's own verdict.
type Observed struct {
	Verdict outcome.Verdict // classified, then judged
	// Learned is what the models learn: a timeout never fails a goal, but
	// teaches a failure.
	Learned outcome.Status
	// Disagrees is true when the agent gave a verdict of its own (not
	// neutral) and it is not the one learned.
	Disagrees bool
	// Member is the answer's "observation" member.
	Member pyjson.Value
}

// ObserveResult classifies a report's raw result by rules and judges it
// by expect, the report's "expect" (Null for none; the caller checked
// it): an expected failure is a success of the step, an unexpected pass
// is neutral, which teaches nothing and spends no goal's retry. self is
// the agent's own verdict, the report's success. The error is
// outcome.ParseResult's.
func ObserveResult(result, expect pyjson.Value, rules outcome.Rules, self string) (Observed, error) {
	r, err := outcome.ParseResult(result)
	if err != nil {
		return Observed{}, err
	}
	v := outcome.Classify(r, rules)
	x, _ := outcome.ParseExpectation(expect)
	v = x.Judge(r, v)
	o := Observed{Verdict: v, Learned: v.Status.Learned()}
	members := []pyjson.Member{
		pyjson.KV("status", v.Status.String()), pyjson.KV("confidence", v.Confidence),
		pyjson.KV("rule", v.Rule), pyjson.KV("detail", v.Detail),
	}
	if !x.IsZero() {
		members = append(members, pyjson.KV("expected", x.String()))
	}
	if outcome.Status(self) != outcome.Neutral {
		agree := outcome.Status(self) == o.Learned
		o.Disagrees = !agree
		members = append(members, pyjson.KV("self_report", self), pyjson.KV("agrees", agree))
	}
	o.Member = pyjson.ObjectValue(members)
	return o, nil
}
