package history

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

func dumps(vs []pyjson.Value) string { return string(pyjson.AppendCompact(nil, pyjson.ArrayValue(vs))) }

// Allocations count actions most used first (ties in order of first use),
// their outcomes by word with the four statuses first and an odd word as
// spelled; a line without an action is "unknown", without a success
// neutral.
func TestAllocate(t *testing.T) {
	lines := []pyjson.Value{
		pyjson.Obj(pyjson.KV("action", "a"), pyjson.KV("success", "success")),
		pyjson.Obj(pyjson.KV("action", "b"), pyjson.KV("success", "failure")),
		pyjson.Obj(pyjson.KV("action", "b"), pyjson.KV("success", "DONE")),
		pyjson.Obj(pyjson.KV("success", "partial")),
		pyjson.Obj(pyjson.KV("action", "a")),
	}
	allocs := Allocate(lines)
	assert.Equal(t, `[{"action":"a","count":2,"pct":40.0,"success_rate":{"success":1,"partial":0,"failure":0,"neutral":1}},`+
		`{"action":"b","count":2,"pct":40.0,"success_rate":{"success":0,"partial":0,"failure":1,"neutral":0,"DONE":1}},`+
		`{"action":"unknown","count":1,"pct":20.0,"success_rate":{"success":0,"partial":1,"failure":0,"neutral":0}}]`,
		dumps(AllocationValues(allocs, len(lines))))
	assert.Equal(t, "[]", dumps(AllocationValues(Allocate(nil), 0)))
}

// Overrides are counted by jump, most frequent first, at most ten; a
// missing end is "?".
func TestSummarizeOverrides(t *testing.T) {
	jump := func(from, to string) pyjson.Value { return pyjson.Obj(pyjson.KV("from", from), pyjson.KV("to", to)) }
	in := []pyjson.Value{jump("a", "b"), jump("c", "d"), jump("c", "d"), pyjson.Obj(pyjson.KV("to", "x"))}
	for i := range 12 {
		in = append(in, jump("n", string(rune('a'+i))))
	}
	got := SummarizeOverrides(in)
	assert.Len(t, got, 10)
	assert.Equal(t, `[{"jump":"c → d","count":2},{"jump":"a → b","count":1},{"jump":"? → x","count":1}]`, dumps(got[:3]))
	assert.Equal(t, "[]", dumps(SummarizeOverrides(nil)))
}

// The PP trend compares the first and last snapshots' health, past ±0.05.
func TestPPTrend(t *testing.T) {
	snap := func(h float64) pyjson.Value { return pyjson.Obj(pyjson.KV("health", h)) }
	for _, tc := range []struct {
		snaps []pyjson.Value
		want  string
	}{
		{nil, TrendInsufficient},
		{[]pyjson.Value{snap(0.5)}, TrendInsufficient},
		{[]pyjson.Value{snap(0.5), snap(0.9), snap(0.56)}, TrendImproving},
		{[]pyjson.Value{snap(0.5), snap(0.44)}, TrendDeclining},
		{[]pyjson.Value{snap(0.5), snap(0.54)}, TrendStable},
		{[]pyjson.Value{pyjson.Obj(), snap(0.06)}, TrendImproving}, // a missing health is 0
	} {
		assert.Equal(t, tc.want, PPTrend(tc.snaps), "%s", dumps(tc.snaps))
	}
}

// What to do first: annotate, synthesize when none ran or the last is more
// than a week old, review when health declines.
func TestRecommendations(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	assert.Equal(t, []string{"No synthesis has been performed yet. Consider running one."},
		Recommendations(0, "", now, TrendStable))
	assert.Equal(t, []string{}, Recommendations(0, "2026-11-14", now, TrendImproving))
	assert.Equal(t, []string{
		"Annotate 2 unannotated artifact(s) — their quantitative signal lacks qualitative explanation.",
		"Synthesis overdue — last was 8 days ago.",
		"PP health is declining — review recent actions for efficiency.",
	}, Recommendations(2, "2026-11-13", now, TrendDeclining))
}
