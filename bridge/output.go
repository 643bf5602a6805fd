package bridge

import (
	"slices"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// An OutputField is one top-level member of an operation's answer: what a
// tool's outputSchema declares (Spec.OutputSchema). Members inside it are
// not described: their doc says what they hold.
type OutputField struct {
	Name string
	Type Type // TypeList for a list whose items vary or may be of any type
	// Null: the member may be null (a model that has no such value, a
	// workspace that has none yet).
	Null bool
	// Always: every answer of the operation has the member, whatever the
	// model, the input or the workspace. A member only some answers carry
	// (another model's, a variant's) is described, but not required.
	Always bool
	Doc    string // one line: what the member holds
}

// OutputSchema returns the JSON Schema (draft 2020-12) of the operation's
// answer, from Output: an object whose described members have their
// types, whose members every answer has (OutputField.Always) are
// required, and which may hold more: an answer gains members across
// versions and models, and a client must keep accepting it.
//
// Only the MCP server and tests build it: the command line never does.
func (sp *Spec) OutputSchema() pyjson.Value {
	outputs := sp.Outputs()
	props := make([]pyjson.Member, 0, len(outputs))
	var required []string
	for _, f := range outputs {
		props = append(props, pyjson.KV(f.Name, f.schema()))
		if f.Always {
			required = append(required, f.Name)
		}
	}
	out := []pyjson.Member{
		pyjson.KV("$schema", "https://json-schema.org/draft/2020-12/schema"),
		pyjson.KV("title", sp.Name),
		pyjson.KV("description", "the answer of "+sp.Name),
		pyjson.KV("type", "object"),
		pyjson.KV("properties", pyjson.ObjectValue(props)),
	}
	if required != nil {
		out = append(out, pyjson.KV("required", required))
	}
	return pyjson.ObjectValue(append(out, pyjson.KV("additionalProperties", true)))
}

// The members Do adds to answers, whatever the operation: the first
// answer, replayed, of a call retried with its request_id (Spec.Retries),
// and the warnings of an operation on the engine's state.
var (
	replayedOutput = OutputField{Name: "replayed", Type: TypeBool,
		Doc: "a call retried with its request_id: this is the first call's answer, and nothing ran again"}
	warningsOutput = OutputField{Name: "warnings", Type: TypeList,
		Doc: "what the call noticed without refusing it, one message each"}
)

// Outputs returns the members of the operation's answer: Output, and
// those Do adds (replayed when it Retries, warnings when it runs on the
// engine's state).
func (sp *Spec) Outputs() []OutputField {
	out := slices.Clip(sp.Output)
	if sp.Retries {
		out = append(out, replayedOutput)
	}
	if sp.run != nil {
		out = append(out, warningsOutput)
	}
	return out
}

// schema is the member's JSON Schema.
func (f *OutputField) schema() pyjson.Value {
	p := []pyjson.Member{pyjson.KV("type", outputTypes[f.Type])}
	switch f.Type {
	case TypeStrings:
		p = append(p, pyjson.KV("items", pyjson.Obj(pyjson.KV("type", "string"))))
	case TypeObjects:
		p = append(p, pyjson.KV("items", pyjson.Obj(pyjson.KV("type", "object"))))
	}
	if f.Null {
		// One type per branch: some clients read only a subset of JSON
		// Schema in which "type" names one type (the MCP Inspector's
		// --strict warns of a list).
		p = []pyjson.Member{pyjson.KV("anyOf", []pyjson.Value{pyjson.ObjectValue(p), pyjson.Obj(pyjson.KV("type", "null"))})}
	}
	return pyjson.ObjectValue(append(p, pyjson.KV("description", f.Doc)))
}

var outputTypes = [...]string{TypeString: "string", TypeInt: "integer", TypeNumber: "number", TypeBool: "boolean",
	TypeObject: "object", TypeStrings: "array", TypeObjects: "array", TypeList: "array"}
