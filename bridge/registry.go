package bridge

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The operation registry. Each operation is described once, by a Spec in
// its own op_*.go file: its name, summary, help and example, whether it
// changes the workspace, whether it takes a request_id, the schema of its
// input and the members of its answer. Everything else is derived from it: Do validates every call
// against it before the workspace is touched; the command line builds its
// commands, flags and --help from it; the command reference the skill
// installs (references/commands.md) and the JSON Schemas of tools
// (InputSchema, and OutputSchema of the answer Output describes) are
// generated from it, and tests fail when either drifts.

// A Spec describes one operation.
type Spec struct {
	// Name is the command: ucs NAME. A name of two words ("goal add") is
	// a subcommand of its first word's group.
	Name    string
	Summary string // one line, no final period: the command list's entry
	Long    string // what --help and the reference add to the summary (paragraphs)
	Example string // command lines as an agent types them, one per line
	// Mutating operations may change the workspace: they take its lock
	// exclusively (check only with repair).
	Mutating bool
	// Retries: the input takes a request_id, and a call retried with the
	// same id and input returns the first answer, marked "replayed",
	// instead of running again.
	Retries bool
	// Open inputs may hold members beyond Fields (import reads a package
	// whose later versions may carry more); any other input holding one
	// is refused with unknown_field.
	Open bool
	// Operator operations are the operator's, not the agent's: they change
	// the policy that binds the agent, create, reset, migrate or import the
	// workspace, or read or write a path their caller names. The command
	// line serves them (a person at a shell); an MCP server serves them
	// only on its operator's surface (ucs-mcp --operator), never to the
	// agent it binds.
	Operator bool
	// Verdict operations can carry a person's verdict (rate, confirm,
	// contradict, retire): it weighs as a person's only when the call came
	// through the operator's surface (Options.Surface); through the
	// agent's, as the agent's own report. Do records the surface in the
	// journal event's args, so a replay weighs it the same way.
	Verdict bool
	// Destructive operations may delete, replace or reset what is there
	// (init --force, migrate, check --repair, a policy revoked, replaced
	// or cleared, an observation retired), where every other changing
	// operation only adds: a tool's destructiveHint.
	Destructive bool
	Fields      []Field // the input, in the order help shows it (request_id aside: see Inputs)
	// Output describes the answer's top-level members, in the order it
	// gives them: what a tool declares as its outputSchema (OutputSchema).
	Output []OutputField
	// Peers operations read the fleet's knowledge beside the workspace's
	// own (consult, coverage) or start from it (init): on a store, a call
	// of one mirrors the fleet's other workspaces too (internal/store).
	Peers bool

	check func(c Call) error // rules across fields, after each field passed
	// readOnly, when set, says a call of a Mutating operation changes
	// nothing (consult --from): it runs on a shared lock, is neither
	// journaled nor committed, and converts no old workspace.
	readOnly func(c Call) bool
	run      func(s *session, c Call) (pyjson.Value, error) // runs on a loaded session, inside Do's lock and commit
	tool     func(b *Bridge, c Call) (pyjson.Value, error)  // runs on its own: check, verify, log
	// table renders the answer for people: a call whose format is
	// "table" has it written to Options.Output (Do then returns null).
	table func(out pyjson.Value) string
	// open begins the call's transaction and loads its session; nil: an
	// initialized workspace's (Bridge.open). init's creates the workspace.
	open func(b *Bridge, c Call, tm *timings) (*session, error)
}

// A Field is one member of an operation's input.
//
// Inputs arrive one way: a field is either a command-line flag (Flag; the
// call carries it in Call.Args, and --name sets it, underscores written as
// hyphens) or a member of the JSON object on stdin (Call.Input). Spec.Call
// maps one object holding both, such as a tool's arguments, onto the same
// Call the command line builds.
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
	Flag    bool   // a command-line flag, carried in Call.Args
	// Positional: on the command line the flag may also be given as the
	// command's one argument (ucs rate 42); carried in Call.Args like any
	// flag. At most one field of an operation is positional.
	Positional bool
	// Path: the field names a file the call reads or writes, a person's
	// convenience at a shell. Tools never take one (ToolInputs leaves it
	// out, and the MCP server refuses it): what it would read comes inline,
	// in another field both surfaces accept (policy set's policy, init's
	// capability_manifest), and what it would write comes in the answer.
	Path bool
	// JSON: a string field that holds a JSON object, given as the object
	// itself (a tool's argument) or as its text (a command-line flag).
	JSON bool
	// Env names an environment variable that sets a flag the command
	// line does not give (the CLI reads it; Do never reads the
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

	// valid, when set, replaces the checks of Type, Required and Enum.
	valid func(x pyjson.Value, present bool) error
}

// mutates reports whether the call may change the workspace: the
// operation is Mutating and the call is not one it runs read-only.
func (sp *Spec) mutates(c Call) bool {
	return sp.Mutating && (sp.readOnly == nil || !sp.readOnly(c))
}

// FlagName is the field's command-line flag, without its dashes.
func (f *Field) FlagName() string { return strings.ReplaceAll(f.Name, "_", "-") }

// A Type is the JSON type of a field.
type Type uint8

// The types of fields.
const (
	TypeString  Type = iota // a string
	TypeInt                 // an integer
	TypeNumber              // an integer or a float
	TypeBool                // true or false
	TypeObject              // an object of any members
	TypeStrings             // a list of strings (a flag takes them comma-separated)
	TypeObjects             // a list of objects
	TypeList                // a list of any items (an answer's member; no input has one)
)

var typeNames = [...]string{"string", "integer", "number", "boolean", "object", "list of strings", "list of objects", "list"}

func (t Type) String() string { return typeNames[t] }

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

// requestIDField is the request_id of every operation that Retries.
var requestIDField = Field{Name: "request_id", Type: TypeString,
	Doc: "an id of your choosing (at most 256 bytes): a call retried with the same id and input is applied once",
	valid: func(x pyjson.Value, present bool) error {
		if !present {
			return nil
		}
		_, err := requestID(pyjson.Obj(pyjson.KV("request_id", x)))
		return err
	}}

// registry holds every Spec in a fixed order, init first. It is filled by
// init, not by its declaration: operations (verify replays through Do)
// reach the registry, and a declaration would be an initialization cycle.
var registry []*Spec

func init() {
	registry = []*Spec{&initSpec, &consultSpec, &coverageSpec, &reportSpec, &reflectSpec, &importSpec, &flushSpec,
		&resumeSpec, &synthesizeSpec, &statusSpec, &exportSpec, &checkSpec, &verifySpec, &logSpec, &migrateSpec, &rateSpec, &amendSpec,
		&showSpec, &viewSpec}
	registry = append(registry, goalSpecs()...)
	registry = append(registry, policySpecs()...)
	registry = append(registry, observationSpecs()...)
}

// Specs returns every operation, init first. The Specs are shared: do not
// change them.
func Specs() []*Spec { return registry }

// Group returns the first word of a two-word operation's name ("goal" of
// "goal add"), or "".
func (sp *Spec) Group() string {
	g, _, ok := strings.Cut(sp.Name, " ")
	if !ok {
		return ""
	}
	return g
}

// ToolName is the operation's name as one word, for tool surfaces that
// take no spaces: "goal_add".
func (sp *Spec) ToolName() string { return strings.ReplaceAll(sp.Name, " ", "_") }

// Lookup returns the operation named name, or nil.
func Lookup(name string) *Spec {
	for _, sp := range registry {
		if sp.Name == name {
			return sp
		}
	}
	return nil
}

// Operations lists the operations on the engine's state, init first: every
// operation but check, verify and log, which work on the workspace's files
// and history.
func Operations() []string {
	var out []string
	for _, sp := range registry {
		if sp.run != nil || sp.Name == "init" {
			out = append(out, sp.Name)
		}
	}
	return out
}

// Inputs returns the fields of the operation's input: Fields, and
// request_id when it Retries.
func (sp *Spec) Inputs() []Field {
	if !sp.Retries {
		return sp.Fields
	}
	return append(sp.Fields[:len(sp.Fields):len(sp.Fields)], requestIDField)
}

// ToolInputs returns the fields a tool running the operation takes:
// Inputs without those that name a path (Field.Path).
func (sp *Spec) ToolInputs() []Field {
	var out []Field
	for _, f := range sp.Inputs() {
		if !f.Path {
			out = append(out, f)
		}
	}
	return out
}

// Stdin reports whether the operation reads a JSON object on stdin: it
// has a field that is not a flag, or takes any member (Open).
func (sp *Spec) Stdin() bool {
	if sp.Open || sp.Retries {
		return true
	}
	for i := range sp.Fields {
		if !sp.Fields[i].Flag {
			return true
		}
	}
	return false
}

// Call builds the call of one input object holding every field, such as
// a tool's arguments: the fields that are flags go to Args, everything
// else to Input (null for an operation that reads no stdin and is sent
// nothing more).
func (sp *Spec) Call(in pyjson.Value) Call {
	inputs := sp.Inputs()
	var args, rest []pyjson.Member
	for _, m := range in.Members() {
		if i := slices.IndexFunc(inputs, func(f Field) bool { return f.Name == m.Key }); i >= 0 && inputs[i].Flag {
			args = append(args, m)
		} else {
			rest = append(rest, m)
		}
	}
	c := Call{Op: sp.Name, Args: pyjson.ObjectValue(args), Input: pyjson.NullValue()}
	if rest != nil || sp.Stdin() {
		c.Input = pyjson.ObjectValue(rest)
	}
	return c
}

// validate checks a call against the spec, before anything is read or
// locked, and returns it as the journal records it: the words of AnyCase
// fields in the spelling listed. Unknown members are refused unless
// lenient (a replay of a journal written before they were).
func (sp *Spec) validate(c Call, lenient bool) (Call, error) {
	inputs := sp.Inputs()
	if err := sp.checkUTF8(c, inputs); err != nil {
		return c, err
	}
	if !lenient {
		if err := sp.unknown(c.Args, inputs, true); err != nil {
			return c, err
		}
		if !sp.Open {
			if err := sp.unknown(c.Input, inputs, false); err != nil {
				return c, err
			}
		}
	}
	for i := range inputs {
		f := &inputs[i]
		obj := &c.Input
		if f.Flag {
			obj = &c.Args
		}
		x, ok := obj.Get(f.Name)
		canon, err := f.check(x, ok && !x.IsNull())
		if err != nil {
			return c, err
		}
		if canon != "" {
			*obj = obj.With(f.Name, canon)
		}
		// A replay runs the event as it was recorded: an earlier ucs kept
		// text that a cap or a redaction would now change.
		if ok && !x.IsNull() && !lenient {
			if y, changed, err := f.checkText(x); err != nil {
				return c, err
			} else if changed {
				*obj = obj.With(f.Name, y)
			}
		}
	}
	if sp.check != nil {
		if err := sp.check(c); err != nil {
			return c, err
		}
	}
	return c, nil
}

// checkUTF8 refuses a call any of whose strings (member names included)
// is not valid UTF-8, naming the field that holds it.
func (sp *Spec) checkUTF8(c Call, inputs []Field) error {
	for _, part := range []struct {
		v     pyjson.Value
		flags bool
	}{{c.Args, true}, {c.Input, false}} {
		for _, m := range part.v.Members() {
			if utf8.ValidString(m.Key) && validUTF8(m.Value) {
				continue
			}
			where := "field " + quote(strings.ToValidUTF8(m.Key, "\ufffd"))
			if i := slices.IndexFunc(inputs, func(f Field) bool { return f.Name == m.Key && f.Flag == part.flags }); i >= 0 {
				where = inputs[i].label()
			}
			return invalidUTF8(where)
		}
	}
	return nil
}

// unknown refuses a member of v that is no field of the operation (of
// its flags if flags, of its stdin members otherwise).
func (sp *Spec) unknown(v pyjson.Value, inputs []Field, flags bool) error {
	for _, m := range v.Members() {
		if slices.ContainsFunc(inputs, func(f Field) bool { return f.Name == m.Key && f.Flag == flags }) {
			continue
		}
		var names []string
		for _, f := range inputs {
			if f.Flag == flags {
				names = append(names, f.Name)
			}
		}
		hint := sp.Name + " takes no input"
		if len(names) > 0 {
			hint = "the fields of " + sp.Name + " are " + strings.Join(names, ", ")
			if near := Nearest(m.Key, names); near != "" {
				hint = "did you mean " + quote(near) + "? " + hint
			}
		}
		if flags {
			return badInput(fault.CodeUnknownField, hint, "%s has no argument %s", sp.Name, quote(m.Key))
		}
		return badInput(fault.CodeUnknownField, hint, "unknown field %s for %s", quote(m.Key), sp.Name)
	}
	return nil
}

// complete returns the call as the operation runs it: every field that is
// absent or null and has a Default takes it. The journal keeps the call as
// it was sent (validate's): defaults are the registry's, and a replay
// completes the call the same way.
func (sp *Spec) complete(c Call) Call {
	for _, f := range sp.Inputs() {
		if f.Default == nil {
			continue
		}
		obj := &c.Input
		if f.Flag {
			obj = &c.Args
		}
		if x, ok := obj.Get(f.Name); ok && !x.IsNull() {
			continue
		}
		// In key order, as Do sorts the input: an operation sees the
		// members in the order a replay of the journal gives them.
		ms := append(slices.Clip(obj.Members()), pyjson.KV(f.Name, f.Default))
		slices.SortStableFunc(ms, func(a, b pyjson.Member) int { return strings.Compare(a.Key, b.Key) })
		*obj = pyjson.ObjectValue(ms)
	}
	return c
}

// label names the field in messages as the caller wrote it.
func (f *Field) label() string {
	if f.Flag {
		return "--" + f.FlagName()
	}
	return "field " + quote(f.Name)
}

// check checks one field's value (present: neither absent nor null). For
// a string of an enum spelled in another case it returns the word listed.
func (f *Field) check(x pyjson.Value, present bool) (string, error) {
	if f.JSON && present {
		return "", f.checkJSON(x)
	}
	if f.valid != nil {
		return "", f.valid(x, present)
	}
	if !present {
		if f.Required {
			if f.Flag {
				return "", badInput(fault.CodeMissingField, "give "+f.label()+": "+f.Doc, "%s is required", f.label())
			}
			return "", badInput(fault.CodeMissingField, "add "+quote(f.Name)+" to the input", "required field %s is missing", quote(f.Name))
		}
		return "", nil
	}
	kind := x.Kind()
	ok := false
	switch f.Type {
	case TypeString:
		ok = kind == pyjson.String
	case TypeInt:
		ok = kind == pyjson.Int
	case TypeNumber:
		ok = kind == pyjson.Int || kind == pyjson.Float
	case TypeBool:
		ok = kind == pyjson.Bool
	case TypeObject:
		ok = kind == pyjson.Object
	case TypeStrings, TypeObjects:
		ok = kind == pyjson.Array
	}
	if !ok {
		if f.Enum != nil {
			return "", badInput(fault.CodeWrongType, "use one of: "+strings.Join(f.Enum, ", "),
				"%s must be one of %s, got %s", f.label(), strings.Join(f.Enum, ", "), kind.Noun())
		}
		name := f.label()
		if !f.Flag {
			name = quote(f.Name)
		}
		return "", badInput(fault.CodeWrongType, name+" must be "+mustBe[f.Type].hint,
			"%s must be %s, got %s", f.label(), mustBe[f.Type].msg, kind.Noun())
	}
	switch f.Type {
	case TypeStrings, TypeObjects:
		want, noun := pyjson.String, "a string"
		if f.Type == TypeObjects {
			want, noun = pyjson.Object, "an object"
		}
		for i, it := range x.Items() {
			if it.Kind() != want {
				msg := f.Name + "[" + strconv.Itoa(i) + "] must be " + noun
				if f.Type == TypeStrings {
					msg += ", got " + it.Kind().Noun()
				}
				return "", badInput(fault.CodeWrongType, quote(f.Name)+" must be "+mustBe[f.Type].hint, "%s", msg)
			}
		}
	case TypeString:
		s := x.Str()
		if f.Enum != nil {
			for _, w := range f.Enum {
				if s == w {
					return "", nil
				}
			}
			for _, w := range f.Enum {
				if f.AnyCase && strings.EqualFold(s, w) {
					return w, nil
				}
			}
			return "", badInput(fault.CodeInvalidValue, "use one of: "+strings.Join(f.Enum, ", "),
				"%s is %s, not one of %s", f.label(), quote(s), strings.Join(f.Enum, ", "))
		}
		if f.Required && strings.TrimSpace(s) == "" {
			if f.Flag {
				return "", badInput(fault.CodeMissingField, "give "+f.label()+": "+f.Doc, "%s is required", f.label())
			}
			return "", badInput(fault.CodeMissingField, "give "+quote(f.Name)+" a value", "required field %s is empty", quote(f.Name))
		}
	}
	return "", nil
}

func argBool(c Call, key string) bool {
	v, _ := c.Args.Get(key)
	return v.Bool()
}

func argInt(c Call, key string) int64 {
	v, _ := c.Args.Get(key)
	n, _ := v.Int()
	return n
}

// Check validates one input object (every field as sp.Call maps it) as Do
// validates an operation's, with the same codes and hints, and returns it
// with the words of AnyCase fields in the spelling listed. It serves a
// tool described by a Spec of its own that is no operation of the
// registry (the MCP server's execute_action).
func (sp *Spec) Check(in pyjson.Value) (Call, error) {
	return sp.validate(sp.Call(pyjson.SortKeys(in)), false)
}

// checkJSON checks a JSON field (Field.JSON): an object, or a string that
// is one's JSON text.
func (f *Field) checkJSON(x pyjson.Value) error {
	switch x.Kind() {
	case pyjson.Object:
		return nil
	case pyjson.String:
		if v, err := pyjson.Parse([]byte(x.Str())); err == nil && v.Kind() == pyjson.Object {
			return nil
		}
		return badInput(fault.CodeInvalidValue, "give "+f.label()+" a JSON object, e.g. '{...}'", "%s is not the text of a JSON object", f.label())
	}
	return badInput(fault.CodeWrongType, f.label()+" must be a JSON object", "%s must be an object, got %s", f.label(), x.Kind().Noun())
}

// argJSON reads a JSON field of a call (Field.JSON) as the object it
// holds; false when it is absent.
func argJSON(c Call, key string) (pyjson.Value, bool) {
	v, ok := c.Args.Get(key)
	if !ok || v.IsNull() {
		return pyjson.Value{}, false
	}
	if v.Kind() == pyjson.String {
		p, err := pyjson.Parse([]byte(v.Str()))
		return p, err == nil
	}
	return v, true
}
