package bridge

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// InputSchema returns the JSON Schema (draft 2020-12) of the operation's
// input as one object, flags and stdin members alike: what a tool running
// the operation declares as its parameters (Call maps such an object onto
// a Call). The schema is at least as strict as Do: an enum lists the
// words, though Do accepts them in any case.
func (sp *Spec) InputSchema() pyjson.Value { return sp.schema(sp.Inputs(), false) }

// ToolSchema is InputSchema of the fields a tool takes (ToolInputs): no
// field that names a path, and a JSON field as the object it holds.
func (sp *Spec) ToolSchema() pyjson.Value { return sp.schema(sp.ToolInputs(), true) }

func (sp *Spec) schema(inputs []Field, tool bool) pyjson.Value {
	props := []pyjson.Member{}
	var required []string
	for _, f := range inputs {
		var p []pyjson.Member
		switch f.Type {
		case TypeStrings, TypeObjects:
			item := "string"
			if f.Type == TypeObjects {
				item = "object"
			}
			p = append(p, pyjson.KV("type", "array"), pyjson.KV("items", pyjson.Obj(pyjson.KV("type", item))))
		case TypeString:
			if f.JSON && tool {
				p = append(p, pyjson.KV("type", "object"))
				break
			}
			fallthrough
		default:
			p = append(p, pyjson.KV("type", schemaTypes[f.Type]))
		}
		if f.Enum != nil {
			p = append(p, pyjson.KV("enum", f.Enum))
		}
		if f.Required && f.Type == TypeString && f.Enum == nil && f.valid == nil {
			p = append(p, pyjson.KV("pattern", `\S`)) // not blank
		}
		if f.Name == requestIDField.Name {
			p = append(p, pyjson.KV("minLength", 1), pyjson.KV("maxLength", maxRequestID))
		}
		if f.Default != nil {
			p = append(p, pyjson.KV("default", f.Default))
		}
		if n := f.MaxLength(); n > 0 && f.Type == TypeString && f.Name != requestIDField.Name {
			p = append(p, pyjson.KV("maxLength", n))
		}
		p = append(p, pyjson.KV("description", f.Describe()))
		props = append(props, pyjson.KV(f.Name, pyjson.ObjectValue(p)))
		if f.Required {
			required = append(required, f.Name)
		}
	}
	out := []pyjson.Member{
		pyjson.KV("$schema", "https://json-schema.org/draft/2020-12/schema"),
		pyjson.KV("title", sp.Name),
		pyjson.KV("description", sp.Summary),
		pyjson.KV("type", "object"),
		pyjson.KV("properties", pyjson.ObjectValue(props)),
	}
	if required != nil {
		out = append(out, pyjson.KV("required", required))
	}
	return pyjson.ObjectValue(append(out, pyjson.KV("additionalProperties", sp.Open)))
}

var schemaTypes = [...]string{TypeString: "string", TypeInt: "integer", TypeNumber: "number", TypeBool: "boolean", TypeObject: "object"}
