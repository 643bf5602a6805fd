package knowledge

import (
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/phrase"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
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

// ReportDecision is the decision a report (in) records: taken at before,
// at now by agent, earning reward (rounded here to 4 places), in the
// routing state routing. Its summary is the outcome's first 200
// characters.
func ReportDecision(in outcome.Report, before string, reward float64, now time.Time, agent string, routing pyjson.Value) Decision {
	return Decision{Date: now.UTC().Format(time.DateOnly), Timestamp: pyjson.ISOTime(now), AgentID: agent,
		Context: in.Context, CursorBefore: before, Action: in.Action, Outcome: in.Outcome, Success: in.Success,
		Significance: in.Significance, Summary: phrase.RunePrefix(in.Outcome, 200), Reward: pyjson.Round(reward, 4),
		Reasoning: in.Reasoning, HasReasoning: in.HasReasoning, Routing: routing}
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
