package history

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
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
