package field

import (
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Field is one member of an operation's input.
//
// Inputs arrive one way: a field is either a command-line flag (Flag; the
// call carries it in its Args, and --name sets it, underscores written as
// hyphens) or a member of the JSON object on stdin (its Input). A tool's
// arguments, one object holding both, are mapped onto the same call the
// command line builds.
type Field struct {
	Name     string
	Type     Type
	Required bool
	// Enum lists the allowed values of a string field.
	Enum []string
	// AnyCase accepts the Enum's words in any case, read as listed.
	AnyCase bool
	Default any    // the value when absent or null: nil (none), a string, bool or int
	Doc     string // one line: what the field means
	Flag    bool   // a command-line flag, carried in the call's Args
	// Positional: on the command line the flag may also be given as the
	// command's one argument (ucs rate 42); carried in the Args like any
	// flag. At most one field of an operation is positional.
	Positional bool
	// Path: the field names a file the call reads or writes, a person's
	// convenience at a shell. Tools never take one (a tool's inputs leave
	// it out, and the MCP server refuses it): what it would read comes
	// inline, in another field both surfaces accept (policy set's policy,
	// init's capability_manifest), and what it would write comes in the
	// answer.
	Path bool
	// JSON: a string field that holds a JSON object, given as the object
	// itself (a tool's argument) or as its text (a command-line flag).
	JSON bool
	// Env names an environment variable that sets a flag the command
	// line does not give (the CLI reads it; an operation never reads the
	// environment).
	Env string

	// Max caps the field: a string's characters (a list of strings': each
	// item's), an object's bytes of compact JSON; 0 is its type's default
	// (text.go). A larger value is refused with too_large.
	Max int
	// Text marks free text (a description, an outcome, a note): the
	// secrets in it are redacted before the call is recorded or run.
	Text bool
	// Files marks an object of whole files by name (an export's Markdown):
	// its strings are held to the object's cap, not to a text's.
	Files bool

	// Valid, when set, replaces the checks of Type, Required and Enum.
	Valid func(x pyjson.Value, present bool) error
	// Schema, when set, holds the length keywords of the field's JSON
	// Schema (minLength, maxLength) where Valid checks a length the cap
	// does not say (request_id's bytes); it replaces the maxLength derived
	// from the cap.
	Schema []pyjson.Member
}

// FlagName is the field's command-line flag, without its dashes.
func (f *Field) FlagName() string { return strings.ReplaceAll(f.Name, "_", "-") }

// Label names the field in messages as the caller wrote it: --name for a
// flag, field "name" for a member of stdin.
func (f *Field) Label() string {
	if f.Flag {
		return "--" + f.FlagName()
	}
	return "field " + quote(f.Name)
}

// quote is s as a JSON string, the way messages quote a name.
func quote(s string) string { return string(pyjson.AppendString(nil, s)) }
