package field

// A Type is the JSON type of a field or of an answer's member.
type Type uint8

// The types of fields.
const (
	String  Type = iota // a string
	Int                 // an integer
	Number              // an integer or a float
	Bool                // true or false
	Object              // an object of any members
	Strings             // a list of strings (a flag takes them comma-separated)
	Objects             // a list of objects
	List                // a list of any items (an answer's member; no input has one)
)

var typeNames = [...]string{"string", "integer", "number", "boolean", "object", "list of strings", "list of objects", "list"}

func (t Type) String() string { return typeNames[t] }

// jsonTypes are the types' names in a JSON Schema.
var jsonTypes = [...]string{String: "string", Int: "integer", Number: "number", Bool: "boolean",
	Object: "object", Strings: "array", Objects: "array", List: "array"}

// JSONType is the type's name in a JSON Schema ("array" for every list),
// or "" for a value that is no Type.
func (t Type) JSONType() string {
	if int(t) >= len(jsonTypes) {
		return ""
	}
	return jsonTypes[t]
}

// what the messages about a field of type t say it must be: for the error,
// and for the hint.
var mustBe = [...]struct{ msg, hint string }{
	{"a string", "a JSON string"},
	{"an integer", "a JSON integer"},
	{"a number", "a JSON number"},
	{"true or false", "true or false"},
	{"an object", "a JSON object"},
	{"a list of strings", "a list of strings"},
	{"a list", "a list of objects"},
	{"a list", "a JSON list"},
}
