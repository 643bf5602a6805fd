package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

var Report = Op{
	Output:  ReportOutput,
	Name:    "report",
	Summary: "Report what you did; the engine learns from it",
	Long: `After every action: the edge from the cursor to the capability used is
reinforced by how it went (without one, the shortest path to it is credited),
and every fifth report runs a φ-cycle that may find new artifacts. A notable
or critical report asks for a reflection and records a judgment node with its
reasoning trace. An action that is no capability is logged, not learned.`,
	Example:  `echo '{"action": "web_fetch", "outcome": "got the pricing page", "success": "success", "significance": "routine"}' | ucs report`,
	Mutating: true,
	Retries:  true,
	Fields: []field.Field{
		{Name: "action", Type: field.String, Required: true, Doc: "the capability you used (a name of the workspace's manifest)"},
		{Name: "outcome", Type: field.String, Text: true, Max: field.TextCap, Doc: "what happened"},
		{Name: "success", Type: field.String, Enum: outcomes, AnyCase: true, Default: "neutral", Doc: "how it went"},
		{Name: "significance", Type: field.String, Enum: significances, Default: "routine",
			Doc: "notable and critical ask for a reflection and record a judgment node"},
		{Name: "context", Type: field.String, Text: true, Max: field.ContextCap, Doc: "the task the action was part of"},
		{Name: "task", Type: field.String, Text: true, Max: field.TaskCap, Doc: "v5: the task the action was part of (consult's task)"},
		{Name: "advisory_id", Type: field.String, Doc: "v3 and later: the consult whose advice this action followed or not (default: the last consult at the same place)"},
		{Name: "reasoning_trace", Type: field.Object, Text: true, Doc: "why you chose it: constraints, alternatives, decisive_factor, ..."},
		{Name: "goal_id", Type: field.String, Doc: "the goal this action works towards (goal add): the outcome moves it, and teaches 1.5 times as much"},
		{Name: "result", Type: field.Object, Text: true, Doc: "the raw result observed: exit_code, duration_ms, timeout_ms, http_status, stdout_bytes, stderr_tail, error, signal, timed_out; classified, it decides the outcome (ucs exec sends it)"},
		{Name: "expect", Type: field.Object, Doc: "with result, what the step is for when its point is to fail: {\"failure\": true} (a non-zero exit is the step's success, exit 0 is neutral) or {\"exit_codes\": [1]} (the exit codes that mean success; ucs exec's --expect-failure and --success-exit send it)"},
	},
	Across: checkReport,
}

// ReportOutput is the answer of report.
var ReportOutput = []field.Output{
	{Name: "cursor_before", Type: field.String, Always: true, Doc: "the capability the agent was at (v5: its task's last step that succeeded, \"\" at the task's start)"},
	{Name: "action", Type: field.String, Always: true, Doc: "the capability reported"},
	{Name: "cursor", Type: field.String, Always: true, Doc: "the capability the agent is at now (v5: its task's last step that succeeded)"},
	{Name: "routed", Type: field.Bool, Always: true, Doc: "the report moved the cursor along the routing graph"},
	{Name: "warning", Type: field.String, Doc: "an unknown capability: the report was logged, not learnt from"},
	{Name: "observation", Type: field.Object, Doc: "the observation the report is evidence for (models v4 and later)"},
	{Name: "goal", Type: field.Object, Doc: "the goal the outcome was attributed to, and whether it changed"},
	{Name: "reinforcement", Type: field.Object, Null: true, Doc: "the edge the outcome reinforced; null when a path or an override was credited instead"},
	{Name: "credited_path", Type: field.Object, Doc: "the reference's model (v2): the path from the cursor the outcome credited"},
	{Name: "policy_override", Type: field.Object, Doc: "no path in the graph: the jump, logged as a policy override"},
	{Name: "learning", Type: field.Object, Doc: "what the learned model (v3 and later) learnt from the outcome"},
	{Name: "phi_fired", Type: field.Bool, Doc: "the engine's phi step ran"},
	{Name: "new_artifacts", Type: field.Objects, Doc: "artifacts the report created"},
	{Name: "methodology_correlations", Type: field.List, Doc: "methodology the outcome bears on"},
	{Name: "reflection_needed", Type: field.Bool, Doc: "a significant outcome: reflect on it (reflection_prompt says how)"},
	{Name: "reflection_prompt", Type: field.Object, Doc: "the questions a reflection answers"},
	{Name: "unannotated_artifacts", Type: field.Objects, Doc: "artifacts awaiting an annotation"},
	{Name: "judgment_node_id", Type: field.String, Doc: "the judgment node recorded with the report's reasoning"},
}

// checkReport checks a report's input before the workspace is opened.
func checkReport(_, input pyjson.Value) error {
	if _, err := outcome.DecodeReport(input); err != nil {
		return err
	}
	return taskID("task", input.StrOf("task"))
}
