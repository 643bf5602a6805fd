package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

var View = Op{
	Output:  ViewOutput,
	Name:    "view",
	Summary: "Write a self-contained HTML dashboard of what ucs has learned, and say where",
	Long: `One HTML file that opens from disk, with no network: first each recent
task's chain of steps learned from its start (show's), with the
alternatives at each step; the capability graph
with the learned transitions (thickness: evidence, colour: success rate),
filterable by context, the artifacts marked; for each context consulted (the
50 most recent) the suggestions with every component of their score, as
consult gives them now (computed by ucs on a copy: nothing is kept); advisory
precision, PP health and reports per day; the torus's fields as heat maps;
goals, observations, dead ends, annotations and the journal's newest events.
Each kind is bounded, with counts of the rest. It changes nothing in the
workspace; the answer says the file's path, size and what it holds.

With --fleet, on a PostgreSQL store: the fleet's page instead, for an
operator: every workspace of the store the caller may read (all of them for
an operator's database role; an agent's own and its fleet's shared ones),
each with its agent, fleet, private or shared, model, reports, advisory
precision and what it holds for its fleet (knowledge entries, believed
observations), and the transitions each fleet's shared workspaces learned,
with whose evidence each comes from and how much (show --fleet's data). It
reads the workspaces only: nothing is committed or journaled. On a
directory workspace --fleet is an error (no_fleet): there is no fleet
without a store.`,
	Example: "ucs view --out /tmp/ucs.html\nucs view --since 7d\nucs view --fleet --out /tmp/fleet.html",
	Fields: []field.Field{
		{Name: "out", Type: field.String, Flag: true, Path: true, Default: "ucs-dashboard.html", Doc: "the HTML file to write"},
		{Name: "inline", Type: field.Bool, Flag: true, Doc: "answer the page itself (member html) and write no file (always, as an MCP tool)"},
		{Name: "since", Type: field.String, Flag: true, Doc: "only the history (events, contexts, curves) from this date, time or span (7d, 24h) on"},
		{Name: "fleet", Type: field.Bool, Flag: true, Doc: "on a store: the fleet's page, every workspace the caller may read and what the fleets learned, with its provenance"},
	},
	Across: func(args, _ pyjson.Value) error {
		if args.StrOf("since") != "" && flag(args, "fleet") {
			return fault.BadInput(fault.CodeInvalidValue, "give --since for this workspace's page, or --fleet for the fleet's",
				"--since reads this workspace's history, which the fleet's page does not show")
		}
		return nil
	},
}

// ViewOutput is the answer of view.
var ViewOutput = []field.Output{
	{Name: "bytes", Type: field.Int, Always: true, Doc: "the page's size in bytes"},
	{Name: "shown", Type: field.Object, Always: true, Doc: "what the page shows, counted (with fleet: workspaces, private, fleets, fleet_transitions and their total)"},
	{Name: "html", Type: field.String, Doc: "with inline (always through a tool): the page itself"},
	{Name: "path", Type: field.String, Doc: "the file the page was written to"},
}
