package search

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

var testRule = TermRule{Key: "test-1", Analyzer: recall.NewAnalyzer(recall.Synonyms{}),
	Fields: func(v pyjson.Value) []recall.Field {
		s, _ := v.Get("summary")
		return []recall.Field{{Text: s.Str(), Weight: recall.TextWeight}}
	}}

var termWords = strings.Fields("fix failing unit test parser deploy pricing report vendor page fetch timeout retry cache")

func termEntry(i int) pyjson.Value {
	var words []string
	for k := range 1 + i%5 {
		words = append(words, termWords[(i*7+k*3)%len(termWords)])
	}
	return entry(fmt.Sprintf("entry %d: %s", i, strings.Join(words, " ")))
}

// search runs a term search in its own transaction (exclusive: it may
// grow the index) and returns its hits as lines and scores.
func search(t *testing.T, l *workspace.Workspace, exclusive, noIndex bool, text string) []string {
	t.Helper()
	tx, err := l.Begin(exclusive)
	require.NoError(t, err)
	defer tx.Close()
	tx.NoIndex = noIndex
	hits, err := Terms(tx, workspace.RelMethodology, recall.Query{Text: text, Max: 20}, testRule)
	require.NoError(t, err)
	var out []string
	for _, h := range hits {
		s, _ := h.Entry.Get("summary")
		require.True(t, strings.HasPrefix(s.Str(), fmt.Sprintf("entry %d:", h.Line)), "hit line %d is %q", h.Line, s.Str())
		out = append(out, fmt.Sprintf("%d %.17g", h.Line, h.Score))
	}
	return out
}

func segmentFiles(t *testing.T, l *workspace.Workspace) []string {
	names, _ := filepath.Glob(filepath.Join(l.Path(workspace.RelTermsDir), "methodology-*.seg"))
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	slices.Sort(names)
	return names
}

// The segments grow with the committed entries, merge geometrically, and
// every search gives exactly the hits and scores of a search of every
// entry from memory, however the lines are split.
func TestTermIndexGrowsAndAgrees(t *testing.T) {
	l := newTestWorkspace(t)
	queries := []string{"fix the failing test", "vendor pricing page", "retry the cache timeout"}
	n := 0
	for round := range 12 {
		var adds []pyjson.Value
		for range 10 + round*9 {
			adds = append(adds, termEntry(n))
			n++
		}
		commit(t, l, workspace.RelMethodology, adds)
		for _, q := range queries {
			want := search(t, l, false, true, q)
			require.NotEmpty(t, want)
			assert.Equal(t, want, search(t, l, false, false, q), "read-only search, round %d", round)
			assert.Equal(t, want, search(t, l, true, false, q), "search that grows the index, round %d", round)
		}
	}
	files := segmentFiles(t, l)
	require.NotEmpty(t, files)
	assert.LessOrEqual(t, len(files), 5, "merged: %v", files)
	assert.True(t, strings.HasPrefix(files[0], "methodology-0-"), "%v", files)
	checkOK(t, l)
}

// A damaged, foreign or stale segment is not used: the search reads the
// entries instead, with the same answer.
func TestTermIndexDistrustsItsFiles(t *testing.T) {
	l := newTestWorkspace(t)
	var adds []pyjson.Value
	for i := range 150 {
		adds = append(adds, termEntry(i))
	}
	commit(t, l, workspace.RelMethodology, adds)
	want := search(t, l, false, true, "fix the failing test")
	assert.Equal(t, want, search(t, l, true, false, "fix the failing test"))
	files := segmentFiles(t, l)
	require.Len(t, files, 1)
	name := filepath.Join(l.Path(workspace.RelTermsDir), files[0])

	data, err := os.ReadFile(name)
	require.NoError(t, err)
	for _, damage := range []func([]byte) []byte{
		func(b []byte) []byte { return b[:len(b)/2] },
		func(b []byte) []byte { c := slices.Clone(b); copy(c[len(c)-30:], strings.Repeat("\xff", 30)); return c },
		func(b []byte) []byte { return []byte(strings.Replace(string(b), "test-1", "test-2", 1)) },
	} {
		require.NoError(t, os.WriteFile(name, damage(data), 0o600))
		assert.Equal(t, want, search(t, l, false, false, "fix the failing test"))
	}
	// A segment whose hashes do not lead to the committed file sum.
	tx, err := l.Begin(false)
	require.NoError(t, err)
	sum := tx.Meta.Files[workspace.RelMethodology]
	tx.Close()
	require.NoError(t, os.WriteFile(name, []byte(strings.Replace(string(data), sum.Hash, strings.Repeat("0", 64), 1)), 0o600))
	assert.Equal(t, want, search(t, l, false, false, "fix the failing test"))
	// Rebuilt by the next search that may write.
	assert.Equal(t, want, search(t, l, true, false, "fix the failing test"))
	rebuilt, err := os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, data, rebuilt, "the same entries give the same bytes")
}
