package bridge

import (
	"strings"
	"unicode"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// Outcomes and significances of a report, as the reference defines them.
var (
	outcomes      = statusWords(outcome.Reported...)
	significances = []string{"routine", "notable", "critical"}
	reflectTypes  = []string{"post_task", "annotation", "experiment", "dead_end", "synthesis"}
)

// statusWords are the words of statuses, for a field's Enum.
func statusWords(statuses ...outcome.Status) []string {
	words := make([]string, len(statuses))
	for i, s := range statuses {
		words[i] = s.String()
	}
	return words
}

// The decoders below read an input Do has validated against the
// operation's Spec and completed with its defaults: every field present
// has its type. What they check is what one field's schema cannot say.

type reportInput struct {
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

func decodeReport(v pyjson.Value) (reportInput, error) {
	in := reportInput{
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
			return in, badInput(fault.CodeInvalidValue, "send the observed result with expect (ucs exec does), or report the outcome as success yourself",
				"expect judges an observed result, and the report has none")
		}
		if _, err := outcome.ParseExpectation(x); err != nil {
			return in, badInput(fault.CodeInvalidValue, `expect is {"failure": true} or {"exit_codes": [1, ...]}`, "%v", err)
		}
		in.Expect = x
	}
	in.Reasoning, _ = v.Get("reasoning_trace")
	// The reference treats {} as no trace.
	in.HasReasoning = in.Reasoning.Kind() == pyjson.Object && len(in.Reasoning.Members()) > 0
	return in, capability("action", in.Action)
}

type reflectInput struct {
	Type, Text, ArtifactID, FailureCondition string
	Capabilities, Keywords                   []string
	GeneralizedPattern                       string
	Topic, WhyClosed, ReopenConditions       string
}

func decodeReflect(v pyjson.Value) (reflectInput, error) {
	in := reflectInput{
		Type:               v.StrOf("type"),
		Text:               v.StrOf("text"),
		ArtifactID:         v.StrOf("artifact_id"),
		FailureCondition:   v.StrOf("failure_condition"),
		Capabilities:       v.StrsOf("capabilities"),
		Keywords:           v.StrsOf("keywords"),
		GeneralizedPattern: v.StrOf("generalized_pattern"),
		Topic:              v.StrOf("topic"),
		WhyClosed:          v.StrOf("why_closed"),
		ReopenConditions:   v.StrOf("reopen_conditions"),
	}
	for _, c := range in.Capabilities {
		if err := capability("capabilities", c); err != nil {
			return in, err
		}
	}
	// text is required but for a dead end, whose Markdown can be composed
	// from its topic, why_closed and reopen_conditions, as the reference
	// accepts a dead end without text.
	switch _, hasText := v.Get("text"); {
	case in.Type == "dead_end" && strings.TrimSpace(in.Text) == "" && strings.TrimSpace(in.Topic) == "":
		return in, badInput(fault.CodeMissingField, "add \"topic\" (with \"why_closed\" and \"reopen_conditions\"), or \"text\"",
			"a dead end needs \"topic\" or \"text\"")
	case in.Type != "dead_end" && !hasText:
		return in, badInput(fault.CodeMissingField, "add \"text\" to the input", "required field \"text\" is missing")
	case in.Type != "dead_end" && strings.TrimSpace(in.Text) == "":
		return in, badInput(fault.CodeMissingField, "give \"text\" a value", "required field \"text\" is empty")
	}
	if in.Type == "annotation" && in.ArtifactID == "" {
		return in, badInput(fault.CodeMissingField, "name the artifact to annotate: an id from a report's new_artifacts or unannotated_artifacts, or from resume's top_wormholes",
			"an annotation needs \"artifact_id\"")
	}
	return in, nil
}

// capability checks a capability name an agent sent: no control characters.
func capability(key, name string) error {
	for _, r := range name {
		if unicode.IsControl(r) {
			return badInput(fault.CodeInvalidValue, "capability names are plain text", "field %q holds a control character", key)
		}
	}
	return nil
}

// taskID checks a task id an agent sent: no control characters, which
// v5's keys use to join their parts (a task id holding one could name
// another task's evidence).
func taskID(key, id string) error {
	for _, r := range id {
		if unicode.IsControl(r) {
			return badInput(fault.CodeInvalidValue, "a task id is plain text", "field %q holds a control character", key)
		}
	}
	return nil
}

func checkReport(c Call) error {
	if _, err := decodeReport(c.Input); err != nil {
		return err
	}
	return taskID("task", c.Input.StrOf("task"))
}

func checkReflect(c Call) error {
	_, err := decodeReflect(c.Input)
	return err
}
