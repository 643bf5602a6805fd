package contract

import (
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

var Consult = Op{
	Output:  ConsultOutput,
	Name:    "consult",
	Summary: "Before a significant task: suggested paths, methodology, dead ends, judgment",
	Long: `Advises before acting: energizes the capabilities the context evokes (and those
named with --capabilities), scores the paths leaving the cursor, and finds the
methodology, dead ends and judgment nodes that fit. The advisory suggests; the
agent decides.

With --from CAPABILITY (or, v5, --task-start) it ranks the next steps at that
position instead of the agent's: a look that changes nothing (no warm-up, no
advisory_id, nothing journaled), to see the advice anywhere along a task.`,
	Peers:    true, // it ranks the fleet's knowledge beside its own
	Example:  "ucs consult --context \"research competitor pricing on the web\"\nucs consult --context \"research pricing\" --capabilities web_fetch,read\nucs consult --context \"fix the failing test\" --from edit",
	Mutating: true, // its warm-up steps move the engine on
	Fields: []field.Field{
		{Name: "context", Type: field.String, Required: true, Flag: true, Text: true, Max: field.ContextCap, Doc: "the task or situation"},
		{Name: "capabilities", Type: field.Strings, Flag: true, Doc: "capability names to energize besides those the context evokes"},
		{Name: "task", Type: field.String, Flag: true, Text: true, Max: field.TaskCap, Doc: "v5: the task this step is part of, an id you choose: a task not seen before starts at its start (default: the context tells tasks apart)"},
		{Name: "from", Type: field.String, Flag: true, Max: field.PhraseCap, Doc: "rank the next steps as if the agent stood at this capability (read-only: nothing is remembered, committed or journaled)"},
		{Name: "task_start", Type: field.Bool, Flag: true, Doc: "v5: rank the first steps of the task (read-only, as --from)"},
		{Name: "greedy", Type: field.Bool, Flag: true, Doc: "v3 and later: rank by the estimate alone, without the exploration bonus (v5: and without dead ends' penalty): a probe, whose top suggestion the next report is not counted as following"},
		{Name: "fields", Type: field.Strings, Flag: true, Doc: "only these parts of the answer, e.g. suggested_paths,dead_ends (cursor and advisory_id always)"},
	},
	Across: func(args, input pyjson.Value) error {
		if err := taskID("task", args.StrOf("task")); err != nil {
			return err
		}
		if args.StrOf("from") != "" && flag(args, "task_start") {
			return fault.BadInput(fault.CodeInvalidValue, "give --from CAPABILITY or --task-start, not both",
				"--from and --task-start name two positions")
		}
		for _, w := range args.StrsOf("fields") {
			if !slices.Contains(consultParts, w) {
				return fault.BadInput(fault.CodeInvalidValue, "consult's parts are "+strings.Join(consultParts, ", "),
					"--fields names %s, which a consult answer does not have", pyjson.Quote(w))
			}
		}
		return nil
	},
}

// ConsultOutput is the answer of consult.
var ConsultOutput = []field.Output{
	{Name: "cursor", Type: field.String, Always: true, Doc: "the capability the agent is at (v5: its task's last step that succeeded, \"\" at the task's start)"},
	{Name: "resolved_capabilities", Type: field.Strings, Doc: "the capabilities the context and the given capabilities resolve to"},
	{Name: "suggested_paths", Type: field.Objects, Doc: "the paths to take from the cursor, best first, with their scores (v5 with fleet peers: each with fleet_share, the share of the evidence behind it that the fleet's other agents taught, 0 to 1)"},
	{Name: "wormholes", Type: field.Objects, Doc: "shortcuts the engine found between capabilities"},
	{Name: "attractors", Type: field.Objects, Doc: "capabilities the engine keeps returning to"},
	{Name: "methodology_hits", Type: field.Objects, Doc: "methodology (reflections) relevant to the context"},
	{Name: "dead_ends", Type: field.Objects, Doc: "approaches recorded as dead ends for the context: do not retry them"},
	{Name: "judgment_hits", Type: field.Objects, Doc: "judgment nodes (earlier outcomes and their reasoning) relevant to the context"},
	{Name: "penalty_applied", Type: field.Object, Doc: "the capabilities penalised by recent failures, and by how much"},
	{Name: "pp_health", Type: field.Number, Doc: "the health of the engine's PP vector, 0 to 1"},
	{Name: "unannotated_count", Type: field.Int, Doc: "artifacts awaiting an annotation (reflect with an artifact_id)"},
	{Name: "open_questions", Type: field.List, Doc: "questions the memory cannot answer yet"},
	{Name: "context_boosted", Type: field.Object, Doc: "the capabilities the context boosted, with their energy"},
	{Name: "advisory_id", Type: field.String, Doc: "this advice's id: attach it to the report of the action that follows it (absent when the call is not recorded as advice)"},
	{Name: "model", Type: field.String, Doc: "the workspace's learning model (v2 to v5), beside advisory_id"},
	{Name: "task", Type: field.String, Doc: "v5: the task the advice is for, as given (the MCP server makes it the session's task)"},
	{Name: "left_out_by_policy", Type: field.Objects, Doc: "capabilities the policy refuses, left out of the advice, and why"},
	{Name: "left_out", Type: field.Object, Doc: "knowledge a model that governs knowledge (v4 and later) left out: how many entries of each kind"},
	{Name: "observations", Type: field.Object, Doc: "a model that governs knowledge (v4 and later): the observations believed about the context"},
}

// consultParts are the members a consult answer may have.
var consultParts = []string{"cursor", "resolved_capabilities", "suggested_paths", "wormholes", "attractors",
	"methodology_hits", "dead_ends", "judgment_hits", "penalty_applied", "pp_health", "unannotated_count",
	"open_questions", "context_boosted", "advisory_id", "model", "left_out_by_policy", "left_out", "observations", "warnings"}
