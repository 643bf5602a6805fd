package knowledge

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// A judgment node takes its summary, constraints and rejected alternatives
// from the reasoning trace when there is one, else the outcome's summary,
// and its keywords from the context, outcome and the trace's text.
func TestJudgmentNode(t *testing.T) {
	trace := pyjson.Obj(pyjson.KV("decisive_factor", "cheapest"), pyjson.KV("alternatives", "scraping"),
		pyjson.KV("constraints", pyjson.Obj(pyjson.KV("budget", 1))))
	for _, tc := range []struct {
		name                          string
		d                             Decision
		summary, negative, constraint string
		keywords                      []string
	}{
		{"no trace", Decision{Context: "fetch pricing", Outcome: "got page", Summary: "got page"},
			`"got page"`, `""`, "null", []string{"fetch", "pricing", "got", "page"}},
		{"trace", Decision{Context: "fetch pricing", Outcome: "got page", Summary: "got page", Reasoning: trace, HasReasoning: true},
			`"cheapest"`, `"scraping"`, `{"budget": 1}`, []string{"fetch", "pricing", "got", "page", "cheapest", "scraping"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := JudgmentNode(tc.d)
			get := func(key string) string { v, _ := n.Get(key); return string(pyjson.AppendDumps(nil, v)) }
			assert.Equal(t, tc.summary, get("methodology_summary"))
			assert.Equal(t, tc.negative, get("negative_knowledge"))
			ctx, _ := n.Get("context")
			c, _ := ctx.Get("constraints")
			assert.Equal(t, tc.constraint, string(pyjson.AppendDumps(nil, c)))
			assert.ElementsMatch(t, tc.keywords, Strings(n, "keywords"))
		})
	}
}

// A report's decision is dated and stamped at its time in UTC, its reward
// rounded to 4 places and its summary the outcome's first 200 characters;
// the reasoning trace and the routing pass through.
func TestReportDecision(t *testing.T) {
	long := strings.Repeat("é", 250)
	trace := pyjson.Obj(pyjson.KV("decisive_factor", "cheapest"))
	in := outcome.Report{Action: "b", Outcome: long, Success: "success", Significance: "notable", Context: "task",
		Reasoning: trace, HasReasoning: true}
	at := time.Date(2026, 11, 21, 23, 30, 0, 0, time.FixedZone("x", -2*3600))
	d := ReportDecision(in, "a", 0.123456, at, "agent", pyjson.Obj(pyjson.KV("t", 1)))
	assert.Equal(t, "2026-11-22", d.Date)
	assert.Equal(t, pyjson.ISOTime(at), d.Timestamp)
	assert.Equal(t, 0.1235, d.Reward)
	assert.Equal(t, strings.Repeat("é", 200), d.Summary)
	assert.Equal(t, Decision{Date: d.Date, Timestamp: d.Timestamp, AgentID: "agent", Context: "task", CursorBefore: "a",
		Action: "b", Outcome: long, Success: "success", Significance: "notable", Summary: d.Summary, Reward: 0.1235,
		Reasoning: trace, HasReasoning: true, Routing: pyjson.Obj(pyjson.KV("t", 1))}, d)
}
