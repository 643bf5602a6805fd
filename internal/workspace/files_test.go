package workspace

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/knowledgegen"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// TestMkdirs checks that mkdirs reports exactly the directories whose
// entries it changed, the ones a commit must sync for new directories to
// survive a power loss.
func TestMkdirs(t *testing.T) {
	root := t.TempDir()
	p := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

	changed, err := mkdirs(root)
	require.NoError(t, err)
	require.Empty(t, changed, "an existing directory changes nothing")

	changed, err = mkdirs(p("a"))
	require.NoError(t, err)
	require.Equal(t, []string{root}, changed)

	changed, err = mkdirs(p("a/b/c/d"))
	require.NoError(t, err)
	require.Equal(t, []string{p("a"), p("a/b"), p("a/b/c")}, changed, "outermost first")
	require.DirExists(t, p("a/b/c/d"))

	require.NoError(t, os.WriteFile(p("f"), nil, 0o644))
	_, err = mkdirs(p("f"))
	require.Error(t, err, "a file where the directory should be")
	_, err = mkdirs(p("f/g"))
	require.Error(t, err)
}

// TestDirsToSync checks that a commit syncs the state directory, the
// directory of each file it created and the parents of each directory it
// created, once each.
func TestDirsToSync(t *testing.T) {
	l := New("/ws", Options{})
	order := []string{RelActionLog, "ucs/state/requests/3/k.json", RelMethodologyMD}
	sizes := map[string]int64{RelActionLog: 10, "ucs/state/requests/3/k.json": -1, RelMethodologyMD: -1}
	got := dirsToSync(l, order, sizes, []string{l.path("ucs/state"), l.path("ucs/state/requests")})
	require.Equal(t, []string{l.path(RelStateDir), l.path("ucs/state/requests/3"), l.path(RelKnowledgeDir),
		l.path("ucs/state/requests")}, got)
}

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
