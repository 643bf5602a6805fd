package field

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// An Output is one top-level member of an operation's answer: what a
// tool's outputSchema declares (OutputSchema). Members inside it are not
// described: its doc says what they hold.
type Output struct {
	Name string
	Type Type // List for a list whose items vary or may be of any type
	// Null: the member may be null (a model that has no such value, a
	// workspace that has none yet).
	Null bool
	// Always: every answer of the operation has the member, whatever the
	// model, the input or the workspace. A member only some answers carry
	// (another model's, a variant's) is described, but not required.
	Always bool
	Doc    string // one line: what the member holds
}

// OutputSchema returns the JSON Schema (draft 2020-12) of the answer of
// the operation named op, whose members are outputs: an object whose
// described members have their types, whose members every answer has
// (Output.Always) are required, and which may hold more: an answer gains
// members across versions and models, and a client must keep accepting
// it.
//
// Only the MCP server and tests build it: the command line never does.
func OutputSchema(op string, outputs []Output) pyjson.Value {
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
		pyjson.KV("title", op),
		pyjson.KV("description", "the answer of "+op),
		pyjson.KV("type", "object"),
		pyjson.KV("properties", pyjson.ObjectValue(props)),
	}
	if required != nil {
		out = append(out, pyjson.KV("required", required))
	}
	return pyjson.ObjectValue(append(out, pyjson.KV("additionalProperties", true)))
}

// schema is the member's JSON Schema.
func (f *Output) schema() pyjson.Value {
	p := []pyjson.Member{pyjson.KV("type", f.Type.JSONType())}
	switch f.Type {
	case Strings:
		p = append(p, pyjson.KV("items", pyjson.Obj(pyjson.KV("type", "string"))))
	case Objects:
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
