// Package contract describes each operation of ucs once: its name, its
// help and example, what kind of operation it is (changing, retried, the
// operator's, destructive), its input's fields with the rules across them,
// and its answer's members. It is the JSON contract agents program
// against. Package bridge runs the operations it describes; the command
// line, its help, the skill's command reference and the MCP tools' JSON
// Schemas are all derived from these descriptions, and tests fail when a
// derived text drifts.
package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// An Op describes one operation.
type Op struct {
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
	// through the operator's surface (bridge.Options.Surface); through the
	// agent's, as the agent's own report. Do records the surface in the
	// journal event's args, so a replay weighs it the same way.
	Verdict bool
	// Destructive operations may delete, replace or reset what is there
	// (init --force, migrate, check --repair, a policy revoked, replaced
	// or cleared, an observation retired), where every other changing
	// operation only adds: a tool's destructiveHint.
	Destructive bool
	Fields      []field.Field // the input, in the order help shows it (request_id aside: see bridge.Spec.Inputs)
	// Output describes the answer's top-level members, in the order it
	// gives them: what a tool declares as its outputSchema.
	Output []field.Output
	// Peers operations read the fleet's knowledge beside the workspace's
	// own (consult, coverage) or start from it (init): on a store, a call
	// of one mirrors the fleet's other workspaces too (internal/store).
	Peers bool

	// Across checks rules across the input's fields (args, the flags as
	// an object) and its stdin input, after each field passed its own.
	Across func(args, input pyjson.Value) error
}
