package knowledge

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
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
