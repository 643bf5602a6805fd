package workspace

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/knowledgegen"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// generated commits the generator's entries (methodology, judgment nodes,
// dead ends) in one transaction, as an import does.
func generated(t *testing.T, l *Workspace, o knowledgegen.Options) {
	t.Helper()
	pkg := knowledgegen.Package(o)
	adds := map[string][]pyjson.Value{}
	for _, k := range []struct{ key, rel string }{
		{"methodology", RelMethodology}, {"judgment_nodes", RelJudgment}, {"dead_ends", RelDeadEnds}} {
		v, _ := pkg.Get(k.key)
		adds[k.rel] = v.Items()
	}
	commit(t, l, adds)
}

// TestCapabilitySearchLists: a capability-only search answered from the
// capabilities' lists (merged in file order) is the search over every
// entry; a list out of file order is a damaged index, and the search
// answers from the knowledge file instead, the same.
func TestCapabilitySearchLists(t *testing.T) {
	l := newTestWorkspace(t)
	generated(t, l, knowledgegen.Options{Methodology: 1000, Judgment: 200, DeadEnds: 100, Seed: 1})
	open := func() *Tx {
		tx, err := l.Begin(false)
		require.NoError(t, err)
		t.Cleanup(tx.Close)
		return tx
	}
	tx := open()
	for _, rel := range indexedFiles {
		assert.True(t, tx.IndexCurrent(rel), "the index of %s is current", rel)
	}
	all, err := readJSONL(l, RelMethodology)
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
		got, err := open().SearchCapabilities(q)
		require.NoError(t, err)
		assert.Equal(t, want, canon(got), "%v", caps)
		assert.NotEmpty(t, want, "%v finds something", caps)
	}

	// Swap the first two lines of read's list.
	p := l.path(capRel(torusfield.DefaultManifest().Index("read")))
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(data), "\n")
	require.Greater(t, len(lines), 2)
	lines[0], lines[1] = lines[1], lines[0]
	require.NoError(t, os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644))
	q := knowledge.Query{Capabilities: []string{"web_fetch", "read"}, Now: testNow, DecayRate: 0.01, StructuralWeight: 10, Max: 5}
	tx = open()
	got, err := tx.SearchCapabilities(q)
	require.NoError(t, err)
	assert.Equal(t, canon(knowledge.SearchMethodology(all, q)), canon(got))
	assert.False(t, tx.IndexCurrent(RelMethodology), "the damaged index is no longer used in this transaction")
}

// TestBigLastEvent: after a big event (an import's holds the whole
// package), a transaction reads only the end of the journal's last event,
// which holds what it needs; the next commit reads the event whole for its
// hash.
func TestBigLastEvent(t *testing.T) {
	l := newTestWorkspace(t)
	tx, err := l.Begin(true)
	require.NoError(t, err)
	ev := event("import", 0)
	ev.Input = pyjson.Obj(pyjson.KV("blob", strings.Repeat("x", 2*bigEvent)))
	_, err = tx.Commit(ev, testState)
	require.NoError(t, err)
	tx.Close()

	end, err := readJournalEnd(l)
	require.NoError(t, err)
	whole, err := readJournalTail(l)
	require.NoError(t, err)
	assert.True(t, end.partial, "only the end of the big event is read")
	assert.False(t, whole.partial)
	assert.Equal(t, whole.seq, end.seq)
	assert.Equal(t, whole.end, end.end)
	assert.Equal(t, strField(whole.event, "state_after"), strField(end.event, "state_after"))

	commit(t, l, map[string][]pyjson.Value{RelActionLog: {pyjson.Obj(pyjson.KV("n", 1))}})
	checkOK(t, l)
}
