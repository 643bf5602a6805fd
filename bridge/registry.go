package bridge

import (
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/suggest"
)

// The operation registry. Each operation is described once, by a
// contract.Op (package contract): its name, summary, help and example,
// whether it changes the workspace, whether it takes a request_id, its
// input's fields and its answer's members (package field's field.Field and
// Output). A Spec, in the operation's own op_*.go file, joins that
// description to the function that runs it. Everything else is derived
// from the registry: Do validates every call against it
// before the workspace is touched (validate, over field's checks); the
// command line builds its commands, flags and --help from it; the command
// reference the skill installs (references/commands.md) and the JSON
// Schemas of tools (InputSchema, and OutputSchema of the answer Output
// describes) are generated from it, and tests fail when either drifts.

// A Spec is one operation of the registry: its description (a
// contract.Op) and how Do runs it.
type Spec struct {
	contract.Op

	// readOnly, when set, says a call of a Mutating operation changes
	// nothing (consult --from): it runs on a shared lock, is neither
	// journaled nor committed, and converts no old workspace.
	readOnly func(c Call) bool
	run      func(s *session, c Call) (pyjson.Value, error) // runs on a loaded session, inside Do's lock and commit
	tool     func(b *Bridge, c Call) (pyjson.Value, error)  // runs on its own: check, verify, log
	// fleet runs a call that asks for the fleet (view --fleet, show
	// --fleet) on the workspaces a store listed, without a session on
	// this one: it reads them only.
	fleet func(b *Bridge, c Call) (pyjson.Value, error)
	// table renders the answer for people: a call whose format is
	// "table" has it written to Options.Output (Do then returns null).
	table func(out pyjson.Value) string
	// open begins the call's transaction and loads its session; nil: an
	// initialized workspace's (Bridge.open). init's creates the workspace.
	open func(b *Bridge, c Call, tm *timings) (*session, error)
}

// mutates reports whether the call may change the workspace: the
// operation is Mutating and the call is not one it runs read-only.
func (sp *Spec) mutates(c Call) bool {
	return sp.Mutating && (sp.readOnly == nil || !sp.readOnly(c))
}

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
func (sp *Spec) Inputs() []field.Field {
	if !sp.Retries {
		return sp.Fields
	}
	return append(sp.Fields[:len(sp.Fields):len(sp.Fields)], contract.RequestIDField)
}

// ToolInputs returns the fields a tool running the operation takes:
// Inputs without those that name a path (field.Field.Path).
func (sp *Spec) ToolInputs() []field.Field {
	var out []field.Field
	for _, f := range sp.Inputs() {
		if !f.Path {
			out = append(out, f)
		}
	}
	return out
}

// InputSchema returns the JSON Schema (draft 2020-12) of the operation's
// input as one object, flags and stdin members alike: what a tool running
// the operation declares as its parameters (Call maps such an object onto
// a Call). The schema is at least as strict as Do: an enum lists the
// words, though Do accepts them in any case.
func (sp *Spec) InputSchema() pyjson.Value {
	return field.InputSchema(sp.Name, sp.Summary, sp.Inputs(), sp.Open, false)
}

// ToolSchema is InputSchema of the fields a tool takes (ToolInputs): no
// field that names a path, and a JSON field as the object it holds.
func (sp *Spec) ToolSchema() pyjson.Value {
	return field.InputSchema(sp.Name, sp.Summary, sp.ToolInputs(), sp.Open, true)
}

// ToolError returns err as a tool running the operation reports it: its
// flags named as the tool's arguments (field.ToolError).
func (sp *Spec) ToolError(err error) error { return field.ToolError(err, sp.Inputs()) }

// The members Do adds to answers, whatever the operation: the first
// answer, replayed, of a call retried with its request_id (Spec.Retries),
// and the warnings of an operation on the engine's state.
var (
	replayedOutput = field.Output{Name: "replayed", Type: field.Bool,
		Doc: "a call retried with its request_id: this is the first call's answer, and nothing ran again"}
	warningsOutput = field.Output{Name: "warnings", Type: field.List,
		Doc: "what the call noticed without refusing it, one message each"}
)

// Outputs returns the members of the operation's answer: Output, and
// those Do adds (replayed when it Retries, warnings when it runs on the
// engine's state).
func (sp *Spec) Outputs() []field.Output {
	out := slices.Clip(sp.Output)
	if sp.Retries {
		out = append(out, replayedOutput)
	}
	if sp.run != nil {
		out = append(out, warningsOutput)
	}
	return out
}

// OutputSchema returns the JSON Schema (draft 2020-12) of the operation's
// answer, from Outputs (field.OutputSchema). Only the MCP server and tests
// build it: the command line never does.
func (sp *Spec) OutputSchema() pyjson.Value { return field.OutputSchema(sp.Name, sp.Outputs()) }

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
		if i := slices.IndexFunc(inputs, func(f field.Field) bool { return f.Name == m.Key }); i >= 0 && inputs[i].Flag {
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
	if err := field.CheckMembers(c.Args, inputs, true); err != nil {
		return c, err
	}
	if err := field.CheckMembers(c.Input, inputs, false); err != nil {
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
		y, changed, err := f.Apply(x, ok && !x.IsNull(), lenient)
		if err != nil {
			return c, err
		}
		if changed {
			*obj = obj.With(f.Name, y)
		}
	}
	if sp.Across != nil {
		if err := sp.Across(c.Args, c.Input); err != nil {
			return c, err
		}
	}
	return c, nil
}

// unknown refuses a member of v that is no field of the operation (of
// its flags if flags, of its stdin members otherwise).
func (sp *Spec) unknown(v pyjson.Value, inputs []field.Field, flags bool) error {
	for _, m := range v.Members() {
		if slices.ContainsFunc(inputs, func(f field.Field) bool { return f.Name == m.Key && f.Flag == flags }) {
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
			if near := suggest.Within2(m.Key, names); near != "" {
				hint = "did you mean " + pyjson.Quote(near) + "? " + hint
			}
		}
		if flags {
			return fault.BadInput(fault.CodeUnknownField, hint, "%s has no argument %s", sp.Name, pyjson.Quote(m.Key))
		}
		return fault.BadInput(fault.CodeUnknownField, hint, "unknown field %s for %s", pyjson.Quote(m.Key), sp.Name)
	}
	return nil
}

// complete returns the call as the operation runs it: every field that is
// absent or null and has a Default takes it. The journal keeps the call as
// it was sent (validate's): defaults are the registry's, and a replay
// completes the call the same way.
func (sp *Spec) complete(c Call) Call {
	for _, f := range sp.Inputs() {
		if f.Flag {
			c.Args = f.Complete(c.Args)
		} else {
			c.Input = f.Complete(c.Input)
		}
	}
	return c
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

// commandField is the flag of a call that records a command line
// (field.Command).
func commandField(doc string) field.Field { return field.Command(doc) }

// argJSON reads a JSON field of a call (field.Field.JSON) as the object it
// holds; false when it is absent.
func argJSON(c Call, key string) (pyjson.Value, bool) {
	v, _ := c.Args.Get(key)
	return field.ObjectOf(v)
}
