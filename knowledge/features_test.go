package knowledge_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/knowledgegen"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// oddEntries are entries ucs could store that the generator never makes:
// missing and mistyped fields, upper-case and repeated keywords, escaped
// strings, odd snapshots, dates malformed or in the future.
var oddEntries = []string{
	`{}`,
	`{"keywords": "pricing", "capabilities": "web_fetch", "date": 20260101}`,
	`{"keywords": ["PRICING", "Pricing", "pricing", 3, null], "capabilities": ["web_fetch", "web_fetch", 1], "date": "2026-13-01"}`,
	`{"keywords": ["caf\u00e9", "pri\u0063ing", "r\u00e9search"], "capabilities": ["web_\u0066etch"], "date": "2026-09-30", "summary": "a \"quoted\" \\ summary \u2014 with escapes"}`,
	`{"keywords": ["research"], "capabilities": [], "date": "2026-08-01", "routing_snapshot": null}`,
	`{"keywords": ["research"], "date": "2026-08-01", "routing_snapshot": {"cursor": 3, "top_paths": [{"to": "read"}, {"to": "read"}, {"score": 1}, "x", {"to": 7}], "context_energy": {"read": 0.005, "web_fetch": "high", "exec": -3, "write": 1e-400, "edit": 0.01, "browser": 1e300, "nodes": 2, "image": {"x": 1}}, "active_artifacts": ["a", "a", 5, "b"], "t": 1}}`,
	`{"keywords": ["research"], "date": "2026-08-01", "routing_snapshot": {"cursor": "read", "top_paths": [], "context_energy": {}, "active_artifacts": []}}`,
	`{"keywords": ["research"], "date": "2026-08-01", "routing_snapshot": {"cursor": "web_fetch", "top_paths": "none", "context_energy": [1], "active_artifacts": "c6b826111c1d656d"}}`,
	`{"keywords": ["zzz"], "capabilities": ["nothing"], "date": "2027-01-01", "reopen_conditions": "When PRICING research gets an API, research again"}`,
	`{"keywords": ["zzz"], "reopen_conditions": 5}`,
	`{"keywords": ["zzz"], "reopen_conditions": "pricing_page web\u2014research"}`,
	`[1, 2, 3]`,
}

type corpus struct {
	entries []knowledge.Entry
	lines   [][]byte
}

func load(t testing.TB, values []pyjson.Value, extra []string) corpus {
	var c corpus
	add := func(v pyjson.Value) {
		c.entries = append(c.entries, v)
		// As the bridge stores them: with where the entry is, and checks.
		c.lines = append(c.lines, append(knowledge.AppendFeatures(nil, v), "\t5\t0123456789abcdef"...))
	}
	for _, v := range values {
		add(v)
	}
	for _, s := range extra {
		v, err := pyjson.Parse([]byte(s))
		require.NoError(t, err, s)
		add(v)
	}
	return c
}

func queries(t testing.TB, c corpus) []knowledge.Query {
	now := time.Date(2026, 9, 2, 8, 0, 0, 0, time.UTC)
	consultSnapshot, err := pyjson.Parse([]byte(`{"cursor": "web_search", "top_paths": [{"to": "web_fetch", "score": 2.1}, {"to": "read", "score": 1.1}, {"to": "browser", "score": 0.9}],
		"context_energy": {"web_search": 1.2, "web_fetch": 0.8, "read": 0.004, "browser": 0.3}, "active_artifacts": ["c6b826111c1d656d", "628c630d9f0e77c6", "a"], "t": 900}`))
	require.NoError(t, err)
	var qs []knowledge.Query
	for i, ctx := range []string{"research competitor pricing on the web", "debug the flaky ci pipeline timeout", "PRICING café zzz", ""} {
		for j, routing := range []pyjson.Value{pyjson.NullValue(), consultSnapshot, knowledge.Entry(pyjson.Obj()), snapshotOf(c.entries[(i*7)%len(c.entries)])} {
			q := knowledge.Query{Keywords: knowledge.Words(ctx), Now: now, DecayRate: 0.01, StructuralWeight: 10, Routing: routing, Max: 5}
			switch (i + j) % 3 {
			case 0:
				q.Capabilities = []string{"web_search", "web_fetch", "browser", "foundry_research"}
			case 1:
				q.Capabilities = []string{"exec", "read", "exec"}
			}
			if j == 3 {
				q.Now = now.AddDate(-1, 0, 0) // most entries in the future: every decay is 1
			}
			qs = append(qs, q)
		}
	}
	return qs
}

func snapshotOf(e knowledge.Entry) pyjson.Value {
	v, _ := e.Get("routing_snapshot")
	return v
}

func contexts() []string {
	return []string{"research competitor pricing on the web", "debug the flaky ci pipeline timeout", "PRICING café zzz", ""}
}

// TestFeatureScoresMatch checks the one scoring routine against the
// reference's searches (reference_test.go): scoring entries' feature lines
// gives, entry for entry, the reference's scores; the searches over decoded
// entries give its hits, scores, order and reopen words; and searching
// only the entries picked by the lines' scores gives the same hits.
func TestFeatureScoresMatch(t *testing.T) {
	pkg := knowledgegen.Package(knowledgegen.Options{Methodology: 1500, Judgment: 400, DeadEnds: 300, Seed: 3})
	scored := 0
	defer func() { t.Logf("%d entries scored", scored); require.Greater(t, scored, 20000) }()
	for _, kind := range []string{"methodology", "judgment_nodes", "dead_ends"} {
		list, _ := pkg.Get(kind)
		c := load(t, list.Items(), oddEntries)
		for qi, q := range queries(t, c) {
			for _, ctx := range contexts() {
				all := q
				all.Max = len(c.entries)
				p := q.Prepare(ctx)
				var score func([]byte) (float64, bool)
				search := func(entries []knowledge.Entry, q knowledge.Query) ([]knowledge.Hit, [][]string) { return nil, nil }
				switch kind {
				case "methodology":
					score = p.Methodology
					search = func(entries []knowledge.Entry, q knowledge.Query) ([]knowledge.Hit, [][]string) {
						return knowledge.SearchMethodology(entries, q), nil
					}
				case "judgment_nodes":
					score = p.JudgmentNode
					search = func(entries []knowledge.Entry, q knowledge.Query) ([]knowledge.Hit, [][]string) {
						return knowledge.SearchJudgmentNodes(entries, q), nil
					}
				case "dead_ends":
					score = p.DeadEnd
					search = func(entries []knowledge.Entry, q knowledge.Query) ([]knowledge.Hit, [][]string) {
						var hits []knowledge.Hit
						var matched [][]string
						for _, h := range knowledge.SearchDeadEnds(entries, q, ctx) {
							hits = append(hits, h.Hit)
							matched = append(matched, h.ReopenMatched)
							require.Equal(t, len(h.ReopenMatched) > 0, h.ReopenTriggered)
						}
						return hits, matched
					}
				}
				want, wantMatched := refSearch(kind, c.entries, all, ctx)
				got, gotMatched := search(c.entries, all)
				require.Equal(t, dumps(want), dumps(got), "%s query %d %q", kind, qi, ctx)
				if kind == "dead_ends" {
					require.Equal(t, wantMatched, gotMatched, "%s query %d %q", kind, qi, ctx)
				}
				wantScore := map[string]float64{}
				for _, h := range want {
					wantScore[string(pyjson.AppendDumps(nil, h.Entry))] = h.Score
				}
				var raw []knowledge.RawHit
				for i, line := range c.lines {
					s, ok := score(line)
					ws, wok := wantScore[string(pyjson.AppendDumps(nil, c.entries[i]))]
					require.Equal(t, wok, ok, "%s query %d %q: line %d: %s", kind, qi, ctx, i, line)
					if ok {
						require.Equal(t, ws, s, "%s query %d %q: line %d: %s", kind, qi, ctx, i, line)
						raw = append(raw, knowledge.RawHit{Index: i, Score: s})
					}
				}
				scored += len(raw)
				var picked []knowledge.Entry
				for _, i := range knowledge.TopRaw(raw, q.Max) {
					picked = append(picked, c.entries[i])
				}
				wantTop, _ := refSearch(kind, c.entries, q, ctx)
				gotTop, _ := search(picked, q)
				require.Equal(t, dumps(wantTop), dumps(gotTop), "%s query %d %q", kind, qi, ctx)
			}
		}
	}
}

func dumps(hits []knowledge.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, string(pyjson.AppendDumps(nil, h.Entry))+" "+pyjson.FormatFloat(h.Score))
	}
	return out
}

func TestTopRawKeepsTies(t *testing.T) {
	hits := []knowledge.RawHit{{0, 1}, {1, 3}, {2, 2}, {3, 2}, {4, 2}, {5, 0.5}}
	require.Equal(t, []int{1, 2, 3, 4}, knowledge.TopRaw(hits, 2))
	require.Equal(t, []int{1}, knowledge.TopRaw(hits, 1))
	require.Equal(t, []int{0, 1, 2, 3, 4, 5}, knowledge.TopRaw(hits, 10))
	require.Empty(t, knowledge.TopRaw(hits, 0))
}

// TestFeaturesFormat: strings that need escaping, empty items and empty
// lists survive the line.
func TestFeaturesFormat(t *testing.T) {
	e, err := pyjson.Parse([]byte(`{"date": "2026-01-02", "keywords": ["A\tB", "", "x\u001fy", "caf\u00e9"], "capabilities": [],
		"routing_snapshot": {"top_paths": [{"x": 1}], "cursor": "c\nd"}}`))
	require.NoError(t, err)
	line := knowledge.AppendFeatures(nil, e)
	require.NotContains(t, string(line), "\n")
	require.Equal(t, 9, strings.Count(string(line), "\t"), "%q", line)
}
