package knowledge

import (
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// A ReflectionInput is what an agent sends to store a reflection: the JSON
// contract of reflect's input, decoded. Type is one of post_task,
// annotation, experiment, dead_end and synthesis.
type ReflectionInput struct {
	Type, Text, ArtifactID, FailureCondition string
	Capabilities, Keywords                   []string
	GeneralizedPattern                       string
	Topic, WhyClosed, ReopenConditions       string
}

// DecodeReflection reads a reflection's input, already validated against
// the operation's schema and completed with its defaults. What it checks
// is what one field's schema cannot say: which fields a type requires.
func DecodeReflection(v pyjson.Value) (ReflectionInput, error) {
	in := ReflectionInput{
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
	// An absent list is an empty one: the entries store [], never null.
	if in.Capabilities == nil {
		in.Capabilities = []string{}
	}
	if in.Keywords == nil {
		in.Keywords = []string{}
	}
	for _, c := range in.Capabilities {
		if err := outcome.CheckCapability("capabilities", c); err != nil {
			return in, err
		}
	}
	// text is required but for a dead end, whose Markdown can be composed
	// from its topic, why_closed and reopen_conditions, as the reference
	// accepts a dead end without text.
	switch _, hasText := v.Get("text"); {
	case in.Type == "dead_end" && strings.TrimSpace(in.Text) == "" && strings.TrimSpace(in.Topic) == "":
		return in, fault.BadInput(fault.CodeMissingField, "add \"topic\" (with \"why_closed\" and \"reopen_conditions\"), or \"text\"",
			"a dead end needs \"topic\" or \"text\"")
	case in.Type != "dead_end" && !hasText:
		return in, fault.BadInput(fault.CodeMissingField, "add \"text\" to the input", "required field \"text\" is missing")
	case in.Type != "dead_end" && strings.TrimSpace(in.Text) == "":
		return in, fault.BadInput(fault.CodeMissingField, "give \"text\" a value", "required field \"text\" is empty")
	}
	if in.Type == "annotation" && in.ArtifactID == "" {
		return in, fault.BadInput(fault.CodeMissingField, "name the artifact to annotate: an id from a report's new_artifacts or unannotated_artifacts, or from resume's top_wormholes",
			"an annotation needs \"artifact_id\"")
	}
	return in, nil
}
