package outcome

import (
	"unicode"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Report is what an agent says of an action it took: the JSON contract
// of a report's input, decoded. It lives with the outcome because most of
// it is one (the status told, the raw result observed and what the agent
// expected of it) and the rest says what the outcome is about.
type Report struct {
	Action, Outcome, Success, Significance, Context string
	Reasoning                                       pyjson.Value // object, or Null
	HasReasoning                                    bool
	GoalID                                          string
	// Result is the raw result the report carries (an observation), or
	// Null; HasResult says it is there.
	Result    pyjson.Value
	HasResult bool
	// Expect is what the agent expected of the result ("expect"), or
	// Null.
	Expect pyjson.Value
	// Weight is how much the report teaches: the observation's
	// confidence, more when goal-directed; 1 for a self-report.
	Weight float64
}

// DecodeReport reads a report's input, already validated against the
// operation's schema and completed with its defaults (every field present
// has its type). What it checks is what one field's schema cannot say: an
// expectation needs a result to judge, and names no control characters.
func DecodeReport(v pyjson.Value) (Report, error) {
	in := Report{
		Action:       v.StrOf("action"),
		Outcome:      v.StrOf("outcome"),
		Success:      v.StrOf("success"),
		Significance: v.StrOf("significance"),
		Context:      v.StrOf("context"),
		GoalID:       v.StrOf("goal_id"),
		Weight:       1,
	}
	if r, ok := v.Get("result"); ok && r.Kind() == pyjson.Object {
		in.Result, in.HasResult = r, true
	}
	if x, ok := v.Get("expect"); ok && !x.IsNull() {
		if !in.HasResult {
			return in, fault.BadInput(fault.CodeInvalidValue, "send the observed result with expect (ucs exec does), or report the outcome as success yourself",
				"expect judges an observed result, and the report has none")
		}
		if _, err := ParseExpectation(x); err != nil {
			return in, fault.BadInput(fault.CodeInvalidValue, `expect is {"failure": true} or {"exit_codes": [1, ...]}`, "%v", err)
		}
		in.Expect = x
	}
	in.Reasoning, _ = v.Get("reasoning_trace")
	// The reference treats {} as no trace.
	in.HasReasoning = in.Reasoning.Kind() == pyjson.Object && len(in.Reasoning.Members()) > 0
	return in, CheckCapability("action", in.Action)
}

// CheckCapability checks a capability name an agent sent in field key: no
// control characters.
func CheckCapability(key, name string) error {
	for _, r := range name {
		if unicode.IsControl(r) {
			return fault.BadInput(fault.CodeInvalidValue, "capability names are plain text", "field %q holds a control character", key)
		}
	}
	return nil
}
