package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

var Show = Op{
	Output:  ShowOutput,
	Name:    "show",
	Summary: "For a person: what ucs has learned, what it suggests and why, how its advice fared",
	Long: `A summary to read: for each recent task the chain of steps learned from its
start (what consult --task-start, then consult --from each step, ranks
first), with the alternatives at each step; the learned transitions (from → to, success rate, the
contexts they were reported in, when last seen), the suggestions for a
context with their reasons (consult's own, computed on a copy: nothing is
kept), the active goals, the advisory precision and the observations due for
revalidation. --format table prints it in 80 columns; json answers the data.
It changes nothing.

With --fleet, on a PostgreSQL store: the fleet instead of this workspace:
every workspace of the store the caller may read (all of them for an
operator's database role; an agent's own and its fleet's shared ones),
each with its agent, fleet, private or shared, owner, model, reports,
advisory precision and what it holds for its fleet, and the transitions
each fleet's shared workspaces learned (a private workspace's evidence is
its own), each with whose evidence it comes from and how much. On a
directory workspace it is an error (no_fleet).`,
	Example: "ucs show --format table\nucs show --context \"research competitor pricing\" --format table\nucs show --fleet --format table",
	Fields: []field.Field{
		{Name: "context", Type: field.String, Flag: true, Text: true, Max: field.ContextCap, Doc: "also the suggestions for this task, as consult would give them now"},
		{Name: "format", Type: field.String, Flag: true, Enum: []string{"json", "table"}, Default: "json", Doc: "json (the data) or table (for people, 80 columns)"},
		{Name: "fleet", Type: field.Bool, Flag: true, Doc: "on a store: every workspace the caller may read and what the fleets learned, with its provenance, instead of this workspace"},
	},
	Across: func(args, _ pyjson.Value) error {
		if args.StrOf("context") != "" && flag(args, "fleet") {
			return fault.BadInput(fault.CodeInvalidValue, "give --context for this workspace's suggestions, or --fleet for the fleet",
				"--context asks this workspace's consult, which the fleet's answer does not give")
		}
		return nil
	},
}

// ShowOutput is the answer of show.
var ShowOutput = []field.Output{
	{Name: "model", Type: field.String, Doc: "the workspace's reference model"},
	{Name: "t", Type: field.Int, Doc: "the engine's step"},
	{Name: "cursor", Type: field.String, Doc: "the capability the agent is at"},
	{Name: "tasks", Type: field.Objects, Doc: "the newest tasks (by context), each with the chain of steps learned from its start (v2 to v4: from the cursor): at each step consult --from's first suggestion, its evidence in whole counts, and the alternatives"},
	{Name: "transitions", Type: field.Objects, Doc: "the transitions learnt, best evidenced first"},
	{Name: "transitions_total", Type: field.Int, Doc: "how many transitions were learnt"},
	{Name: "context", Type: field.String, Doc: "with context: the task, as given"},
	{Name: "suggestions", Type: field.Objects, Doc: "with context: the paths consult suggests for it"},
	{Name: "goals", Type: field.Objects, Doc: "the active goals"},
	{Name: "advisory_precision", Type: field.Object, Null: true, Doc: "how often advice was followed by success; null for a model that learns none (v2)"},
	{Name: "observations_due", Type: field.Objects, Doc: "observations due for a check (models v4 and later), the first few"},
	{Name: "observations_due_count", Type: field.Int, Doc: "how many observations are due"},
	{Name: "workspaces", Type: field.Objects, Doc: "with fleet: every workspace the caller may read, by fleet then name: name, fleet, private, owner (null where the store records none), agent, model, t, reports, advisory_precision, knowledge (methodology, dead_ends, judgment_nodes, observations), transitions_learned; or, for one that does not read, error and code"},
	{Name: "fleet_transitions", Type: field.Objects, Doc: "with fleet: the transitions each fleet's shared workspaces learned, most evidence first (the first 50): fleet, from, to, successes, of, rate, and evidence (each workspace's successes, of and share)"},
	{Name: "fleet_transitions_total", Type: field.Int, Doc: "with fleet: how many transitions the fleets learned"},
	{Name: "table", Type: field.String, Doc: "with format table: the table for people (what the command line prints)"},
}
