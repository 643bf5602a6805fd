package field

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// InputSchema returns the JSON Schema (draft 2020-12) of an input of the
// fields inputs as one object, flags and stdin members alike: what a tool
// declares as its parameters, titled title and described by description.
// open says the object may hold members beyond the fields. The schema is
// at least as strict as the checks: an enum lists the words, though an
// AnyCase field accepts them in any case. For a tool, a JSON field is the
// object it holds rather than its text.
func InputSchema(title, description string, inputs []Field, open, tool bool) pyjson.Value {
	props := []pyjson.Member{}
	var required []string
	for _, f := range inputs {
		var p []pyjson.Member
		switch f.Type {
		case Strings, Objects:
			item := "string"
			if f.Type == Objects {
				item = "object"
			}
			p = append(p, pyjson.KV("type", "array"), pyjson.KV("items", pyjson.Obj(pyjson.KV("type", item))))
		case String:
			if f.JSON && tool {
				p = append(p, pyjson.KV("type", "object"))
				break
			}
			fallthrough
		default:
			p = append(p, pyjson.KV("type", f.Type.JSONType()))
		}
		if f.Enum != nil {
			p = append(p, pyjson.KV("enum", f.Enum))
		}
		if f.Required && f.Type == String && f.Enum == nil && f.Valid == nil {
			p = append(p, pyjson.KV("pattern", `\S`)) // not blank
		}
		p = append(p, f.Schema...)
		if f.Default != nil {
			p = append(p, pyjson.KV("default", f.Default))
		}
		if n := f.MaxLength(); n > 0 && f.Type == String && f.Schema == nil {
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
		pyjson.KV("title", title),
		pyjson.KV("description", description),
		pyjson.KV("type", "object"),
		pyjson.KV("properties", pyjson.ObjectValue(props)),
	}
	if required != nil {
		out = append(out, pyjson.KV("required", required))
	}
	return pyjson.ObjectValue(append(out, pyjson.KV("additionalProperties", open)))
}
