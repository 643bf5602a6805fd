package knowledge

import (
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Decision is what a judgment node records of a reported action: its
// context, the reasoning applied (a reasoning trace's members), the
// outcome and the routing at the time.
type Decision struct {
	Date, Timestamp, AgentID string
	Context, CursorBefore    string
	Action, Outcome, Success string
	Significance             string
	// Summary is the methodology summary without a reasoning trace (the
	// outcome's first 200 characters).
	Summary string
	// Reward is the reward the report earned, rounded.
	Reward float64
	// Reasoning is the reasoning trace, when HasReasoning.
	Reasoning    pyjson.Value
	HasReasoning bool
	// Routing is the routing snapshot for structural retrieval.
	Routing pyjson.Value
}

// JudgmentNode is a decision's judgment node J = (C, M, N, O): its
// context, the reasoning applied, the alternatives rejected and the
// outcome, keyed by the words of its text (at most 30). The caller adds
// its id.
func JudgmentNode(d Decision) Entry {
	text := d.Context + " " + d.Outcome
	var constraints, summary, negative any = nil, d.Summary, ""
	if d.HasReasoning {
		var parts []string
		for _, m := range d.Reasoning.Members() {
			if m.Value.Kind() == pyjson.String {
				parts = append(parts, m.Value.Str())
			}
		}
		text += " " + strings.Join(parts, " ")
		constraints = d.Reasoning.GetOr("constraints", pyjson.NullValue())
		summary = d.Reasoning.GetOr("decisive_factor", pyjson.StringValue(""))
		negative = d.Reasoning.GetOr("alternatives", pyjson.StringValue(""))
	}
	words := Words(text)
	return pyjson.Obj(
		pyjson.KV("date", d.Date),
		pyjson.KV("timestamp", d.Timestamp),
		pyjson.KV("agent_id", d.AgentID),
		pyjson.KV("context", pyjson.Obj(
			pyjson.KV("task_description", d.Context),
			pyjson.KV("cursor_before", d.CursorBefore),
			pyjson.KV("constraints", constraints),
		)),
		pyjson.KV("methodology_summary", summary),
		pyjson.KV("negative_knowledge", negative),
		pyjson.KV("action", d.Action),
		pyjson.KV("outcome", d.Outcome),
		pyjson.KV("outcome_success", d.Success),
		pyjson.KV("significance", d.Significance),
		pyjson.KV("reward", d.Reward),
		pyjson.KV("routing_snapshot", d.Routing),
		pyjson.KV("capabilities", []string{d.Action}),
		pyjson.KV("keywords", words[:min(30, len(words))]),
	)
}
