package workspace

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Storage keeps the index with the features its caller gives it. A
// workspace opened without them (a mirror, a tool that only reads the
// journal) writes no index and never uses one: it cannot tell what the
// lines hold. The index a bridge's workspace wrote is left alone, and
// the workspace still checks.
func TestIndexNeedsFeatures(t *testing.T) {
	l := newTestWorkspace(t)
	commit(t, l, map[string][]pyjson.Value{RelMethodology: {entry("a", "read")}})
	require.DirExists(t, l.Path(RelIndexDir))

	bare := New(l.Root(), Options{})
	commit(t, bare, map[string][]pyjson.Value{RelMethodology: {entry("b", "web_fetch")}})
	tx, err := bare.Begin(true)
	require.NoError(t, err)
	assert.False(t, tx.IndexCurrent(RelMethodology), "without features no index is used")
	tx.RefreshIndex(RelMethodology)
	assert.False(t, tx.IndexCurrent(RelMethodology), "nor rebuilt")
	tx.Close()
	checkOK(t, bare)

	fresh := New(filepath.Join(t.TempDir(), "ws"), Options{})
	tx, err = fresh.Create(false, testNow)
	require.NoError(t, err)
	tx.Meta.Model, tx.Meta.AgentID = LegacyModel, "test"
	tx.Add(RelMethodology, entry("c", "read"))
	_, err = tx.Commit(event("init", 0), testState)
	require.NoError(t, err)
	tx.Close()
	assert.NoDirExists(t, fresh.Path(RelIndexDir), "a workspace without features writes no index")

	// The bridge's workspace finds its index stale and rebuilds it.
	tx, err = l.Begin(true)
	require.NoError(t, err)
	defer tx.Close()
	tx.RefreshIndex(RelMethodology)
	assert.True(t, tx.IndexCurrent(RelMethodology))
}
