package search

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/knowledgegen"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// generatedWorkspace creates a workspace and commits the generator's
// entries (methodology, judgment nodes, dead ends) in one transaction, as
// an import does.
func generatedWorkspace(t *testing.T, o knowledgegen.Options) *workspace.Workspace {
	t.Helper()
	l := newTestWorkspace(t)
	pkg := knowledgegen.Package(o)
	tx, err := l.Begin(true)
	require.NoError(t, err)
	defer tx.Close()
	for _, rel := range []string{workspace.RelMethodology, workspace.RelJudgment, workspace.RelDeadEnds} {
		v, _ := pkg.Get(strings.TrimSuffix(filepath.Base(rel), ".jsonl"))
		for _, e := range v.Items() {
			tx.Add(rel, e)
		}
	}
	_, err = tx.Commit(event("import", 1), testState)
	require.NoError(t, err)
	return l
}

// TestCapabilitySearchLists: a capability-only search answered from the
// capabilities' lists (merged in file order) is the search over every
// entry; a list out of file order is a damaged index, and the search
// answers from the knowledge file instead, the same.
func TestCapabilitySearchLists(t *testing.T) {
	l := generatedWorkspace(t, knowledgegen.Options{Methodology: 1000, Judgment: 200, DeadEnds: 100, Seed: 1})
	open := func() *workspace.Tx {
		tx, err := l.Begin(false)
		require.NoError(t, err)
		t.Cleanup(tx.Close)
		return tx
	}
	tx := open()
	for _, rel := range []string{workspace.RelMethodology, workspace.RelJudgment, workspace.RelDeadEnds} {
		assert.True(t, tx.IndexCurrent(rel), "the index of %s is current", rel)
	}
	all, err := tx.List(workspace.RelMethodology)
	require.NoError(t, err)
	canon := func(hs []knowledge.Hit) string {
		var out []string
		for _, h := range hs {
			out = append(out, fmt.Sprintf("%s %v", pyjson.Canonical(h.Entry), h.Score))
		}
		return strings.Join(out, "\n")
	}
	queries := [][]string{{"web_fetch", "read"}, {"exec"}, {"read", "write", "exec"}, {"browser", "browser"}}
	for _, caps := range queries {
		q := knowledge.Query{Capabilities: caps, Now: testNow, DecayRate: 0.01, StructuralWeight: 10, Max: 5}
		want := canon(knowledge.SearchMethodology(all, q))
		got, err := Capabilities(open(), q)
		require.NoError(t, err)
		assert.Equal(t, want, canon(got), "%v", caps)
		assert.NotEmpty(t, want, "%v finds something", caps)
	}

	// Swap the first two lines of read's list.
	p := filepath.Join(l.Root(), workspace.RelIndexDir, fmt.Sprintf("methodology-cap-%d.txt", torusfield.DefaultManifest().Index("read")))
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(data), "\n")
	require.Greater(t, len(lines), 2)
	lines[0], lines[1] = lines[1], lines[0]
	require.NoError(t, os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644))
	q := knowledge.Query{Capabilities: []string{"web_fetch", "read"}, Now: testNow, DecayRate: 0.01, StructuralWeight: 10, Max: 5}
	tx = open()
	got, err := Capabilities(tx, q)
	require.NoError(t, err)
	assert.Equal(t, canon(knowledge.SearchMethodology(all, q)), canon(got))
	assert.False(t, tx.IndexCurrent(workspace.RelMethodology), "the damaged index is no longer used in this transaction")
}
