package history

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// An ActionLine is a report's line in the action log, in the reference's
// format, with what only ucs's own inputs carry. ReadReport reads it back.
type ActionLine struct {
	T                                      int
	Timestamp                              string
	Action, Outcome, Success, Significance string
	// Reward is the reward the report earned (0 for one not learnt from);
	// Edge the edge it took ("from → to"), nil for none.
	Reward, Edge  any
	Before, After string
	Routed        bool
	// Weight is the evidence weight: a line of weight 1 does not say it.
	Weight float64
	// GoalID is the goal the outcome was attributed to, if any.
	GoalID string
	// Observed says the outcome was classified from a raw result.
	Observed bool
	// LearnedAfter is where the agent came from as a learned model saw it;
	// Step what a v5 model learnt (when HasStep).
	LearnedAfter string
	Step         pyjson.Value
	HasStep      bool
	// Reasoning is the report's reasoning trace, when HasReasoning.
	Reasoning    pyjson.Value
	HasReasoning bool
}

// ReportLine is the line of report in at step t and timestamp, with what
// the call's learning (m) saw of it, before the report is learnt from:
// reward 0, no edge, no reasoning. The caller sets where the cursor was
// and went, and what the report earned.
func ReportLine(in outcome.Report, t int, timestamp string, m *advice.Memory) ActionLine {
	l := ActionLine{T: t, Timestamp: timestamp, Action: in.Action, Outcome: in.Outcome, Success: in.Success,
		Significance: in.Significance, Reward: 0, Weight: in.Weight, GoalID: in.GoalID, Observed: in.HasResult,
		LearnedAfter: m.After}
	if m.StepLearned != nil {
		l.Step, l.HasStep = m.StepLearned.Value(), true
	}
	return l
}

// Value is the line as the action log stores it: the reference's members
// first, then ucs's own only where they say something, so a line of a
// plain report keeps the reference's members.
func (l ActionLine) Value() pyjson.Value {
	entry := pyjson.Obj(
		pyjson.KV("t", l.T),
		pyjson.KV("timestamp", l.Timestamp),
		pyjson.KV("action", l.Action),
		pyjson.KV("outcome", l.Outcome),
		pyjson.KV("success", l.Success),
		pyjson.KV("significance", l.Significance),
		pyjson.KV("reward", l.Reward),
		pyjson.KV("edge", l.Edge),
		pyjson.KV("cursor_before", l.Before),
		pyjson.KV("cursor_after", l.After),
		pyjson.KV("routed", l.Routed),
	)
	if l.Weight != 1 {
		entry = entry.With("evidence_weight", l.Weight)
	}
	if l.GoalID != "" {
		entry = entry.With("goal_id", l.GoalID)
	}
	if l.Observed {
		entry = entry.With("observed", true)
	}
	if l.LearnedAfter != "" {
		entry = entry.With("after", l.LearnedAfter)
	}
	if l.HasStep {
		entry = entry.With("step", l.Step)
	}
	if l.HasReasoning {
		entry = entry.With("reasoning", l.Reasoning)
	}
	return entry
}
