package mcpserver

import (
	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// outputSchema is the JSON Schema of what a tool of the operation sends as
// structured content: the operation's answer (Spec.OutputSchema), or, on
// a tool error, the command line's error object (error, code, hint and any
// details). The members every answer has are required of an answer only:
// a client that validates a tool error's structured content against the
// schema too (some do) still accepts it.
func outputSchema(sp *bridge.Spec, name string) pyjson.Value {
	var ms []pyjson.Member
	var required pyjson.Value
	for _, m := range sp.OutputSchema().Members() {
		switch m.Key {
		case "required":
			required = m.Value
		case "title":
			ms = append(ms, pyjson.KV("title", name))
		default:
			ms = append(ms, m)
		}
	}
	if required.Kind() == pyjson.Array {
		ms = append(ms, pyjson.KV("anyOf", []pyjson.Value{pyjson.Obj(pyjson.KV("required", required)), errorSchema}))
	}
	return pyjson.ObjectValue(ms)
}

// errorSchema is a tool error's structured content.
var errorSchema = pyjson.Obj(
	pyjson.KV("description", "a tool error: the command line's error object"),
	pyjson.KV("properties", pyjson.Obj(
		pyjson.KV("error", pyjson.Obj(pyjson.KV("type", "string"), pyjson.KV("description", "what went wrong"))),
		pyjson.KV("code", pyjson.Obj(pyjson.KV("type", "string"), pyjson.KV("description", "the error's code, for programs"))),
		pyjson.KV("hint", pyjson.Obj(pyjson.KV("type", "string"), pyjson.KV("description", "what to do about it"))),
	)),
	pyjson.KV("required", []string{"error", "code", "hint"}),
)
