package search

import (
	"bytes"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/knowledgegen"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// TestScoreLines checks that scoring index lines in two halves at once
// gives exactly the hits, in order, that scoring them one after another
// gives, for every kind, and that a damaged line in either half is found.
func TestScoreLines(t *testing.T) {
	pkg := knowledgegen.Package(knowledgegen.Options{Methodology: 3000, Judgment: 2500, DeadEnds: 2200, Seed: 5})
	now := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	routing := pyjson.Obj(pyjson.KV("cursor", "read"), pyjson.KV("top_paths", []pyjson.Value{
		pyjson.Obj(pyjson.KV("path", []string{"read", "web_fetch"}))}),
		pyjson.KV("context_energy", pyjson.Obj(pyjson.KV("web_fetch", 0.5))), pyjson.KV("active_wormholes", []string{}))
	q := knowledge.Query{Keywords: knowledge.Words("research competitor pricing on the web"),
		Capabilities: []string{"web_fetch", "read"}, Now: now, DecayRate: 0.01,
		StructuralWeight: 10, Max: 10, Routing: routing}
	for _, c := range []struct {
		list string
		kind knowledge.Kind
	}{{"methodology", knowledge.MethodologyKind}, {"judgment_nodes", knowledge.JudgmentKind}, {"dead_ends", knowledge.DeadEndKind}} {
		items, _ := pkg.Get(c.list)
		var lines [][]byte
		for i, e := range items.Items() {
			lines = append(lines, knowledge.AppendFeatures([]byte(strconv.Itoa(i)+" 1\t"), e))
		}
		require.GreaterOrEqual(t, len(lines), parallelScoring, "the parallel path runs")
		var want []knowledge.RawHit
		p := q.Prepare("pricing research")
		for i, line := range lines {
			tab := bytes.IndexByte(line, '\t')
			if s, ok := p.Score(c.kind, line[tab+1:]); ok {
				want = append(want, knowledge.RawHit{Index: i, Score: s})
			}
		}
		require.NotEmpty(t, want, c.list)
		got, ok := scoreLines(lines, q.Prepare("pricing research"), c.kind)
		require.True(t, ok)
		require.Equal(t, want, got, c.list)

		for _, bad := range []int{1, len(lines) - 2} {
			damaged := slices.Clone(lines)
			damaged[bad] = []byte("no features here")
			_, ok := scoreLines(damaged, q.Prepare("pricing research"), c.kind)
			require.False(t, ok, "%s: damaged line %d", c.list, bad)
		}
	}
}
