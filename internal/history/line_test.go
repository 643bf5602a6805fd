package history

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// A plain report's line keeps the reference's members alone; ucs's own
// follow only where they say something, in a fixed order.
func TestActionLine(t *testing.T) {
	plain := ActionLine{T: 3, Timestamp: "2026-11-21T21:01:00+00:00", Action: "b", Outcome: "ok", Success: "success",
		Significance: "routine", Reward: 0.8, Edge: "a → b", Before: "a", After: "b", Routed: true, Weight: 1}
	const ref = `{"t":3,"timestamp":"2026-11-21T21:01:00+00:00","action":"b","outcome":"ok","success":"success",` +
		`"significance":"routine","reward":0.8,"edge":"a → b","cursor_before":"a","cursor_after":"b","routed":true`
	assert.Equal(t, ref+`}`, string(pyjson.AppendCompact(nil, plain.Value())))
	full := plain
	full.Weight, full.GoalID, full.Observed, full.LearnedAfter = 1.5, "g1", true, "a"
	full.Step, full.HasStep = pyjson.Obj(pyjson.KV("p", 0.5)), true
	assert.Equal(t, ref+`,"evidence_weight":1.5,"goal_id":"g1","observed":true,"after":"a","step":{"p":0.5}}`,
		string(pyjson.AppendCompact(nil, full.Value())))
}

// A report's line takes the report's members and what the call's learning
// saw; it earns reward 0 (an int, as the reference logs an unknown
// capability's) until the caller says otherwise; its reasoning trace,
// when the caller gives it, comes last.
func TestReportLine(t *testing.T) {
	in := outcome.Report{Action: "b", Outcome: "ok", Success: "success", Significance: "routine", GoalID: "g1", HasResult: true, Weight: 1.5}
	l := ReportLine(in, 3, "2026-11-21T21:01:00+00:00", &advice.Memory{})
	l.Before, l.After = "a", "a"
	assert.Equal(t, `{"t":3,"timestamp":"2026-11-21T21:01:00+00:00","action":"b","outcome":"ok","success":"success",`+
		`"significance":"routine","reward":0,"edge":null,"cursor_before":"a","cursor_after":"a","routed":false,`+
		`"evidence_weight":1.5,"goal_id":"g1","observed":true}`, string(pyjson.AppendCompact(nil, l.Value())))

	m := &advice.Memory{After: "a", StepLearned: &advice.StepRecord{State: [3]string{"t", "", "a"}, Own: true}}
	l = ReportLine(outcome.Report{Action: "b", Weight: 1}, 3, "now", m)
	l.Reasoning, l.HasReasoning = pyjson.Obj(pyjson.KV("why", "x")), true
	v := l.Value()
	ms := v.Members()
	assert.Equal(t, []string{"after", "step", "reasoning"}, []string{ms[len(ms)-3].Key, ms[len(ms)-2].Key, ms[len(ms)-1].Key})
	assert.Equal(t, `{"task":"t","prev2":"","prev":"a","own":true}`, string(pyjson.AppendCompact(nil, v.GetOr("step", pyjson.NullValue()))))
}
