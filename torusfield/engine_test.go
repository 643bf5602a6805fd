package torusfield

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// fixture reads a file of the reference's recorded data, kept in the
// repository's testdata so a clone passes without ../shared.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "reference-v2", name))
	require.NoError(t, err)
	return data
}

func bootAegis(t testing.TB) *Engine {
	m, err := ParseManifest(fixture(t, "aegis-manifest.json"))
	require.NoError(t, err)
	e := New(m, Options{})
	e.Run(200)
	return e
}

// TestInitMatchesReference boots the Aegis manifest with seed 1337 and 200
// warm-up steps, as the reference's init does, and compares the result with
// the state file the reference wrote.
func TestInitMatchesReference(t *testing.T) {
	e := bootAegis(t)
	want, err := pyjson.Parse(fixture(t, "init-state.json"))
	require.NoError(t, err)
	ref := New(e.Manifest(), Options{})
	require.NoError(t, ref.Restore(want))

	assert.Equal(t, ref.Grid.T, e.Grid.T)
	assert.Equal(t, ref.Cursor, e.Cursor)
	require.Len(t, e.Graph.Edges, 249)
	for i := range e.Graph.Edges {
		assert.InDelta(t, ref.Graph.Edges[i].W, e.Graph.Edges[i].W, 1e-9, "edge %d", i)
	}
	var gotIDs, wantIDs []string
	for _, a := range e.Artifacts.sorted() {
		gotIDs = append(gotIDs, a.ID)
	}
	for _, a := range ref.Artifacts.All() {
		wantIDs = append(wantIDs, a.ID)
	}
	assert.Equal(t, wantIDs, gotIDs)
	for i := range e.PP {
		assert.InDelta(t, ref.PP[i], e.PP[i], 1e-12, PPDimensions[i])
	}
	for _, f := range fieldNames {
		assert.InDelta(t, ref.Grid.Sum(f), e.Grid.Sum(f), 1e-6, f)
	}
	// The strongest claim: the file we write is the reference's, byte for byte.
	assert.Equal(t, string(fixture(t, "init-state.json")), string(e.MarshalState()))
}

// TestStateRoundTrip: export → import → export gives the same bytes, for
// our own state and for the reference's files.
func TestStateRoundTrip(t *testing.T) {
	m := DefaultManifest()
	for _, name := range []string{"init-state.json", "workspace/ucs/state/torusfield_state.json"} {
		t.Run(name, func(t *testing.T) {
			data := fixture(t, name)
			e, err := LoadState(m, data, Options{})
			require.NoError(t, err)
			again, err := LoadState(m, e.MarshalState(), Options{})
			require.NoError(t, err)
			assert.Equal(t, string(e.MarshalState()), string(again.MarshalState()))
			assert.Equal(t, string(data), string(e.MarshalState()), "the reference's file is written back unchanged")
		})
	}
}
