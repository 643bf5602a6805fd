package workspace

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Storage keeps the manifest's bytes and parses them with its caller's
// parser: the transaction's manifest is what that parser made, and a
// workspace opened without one (a mirror, a transfer) still begins,
// commits and checks, but keeps no index and has no manifest.
func TestManifestIsTheCallers(t *testing.T) {
	l := newTestWorkspace(t)
	commit(t, l, map[string][]pyjson.Value{RelMethodology: {entry("a", "read")}})
	tx, err := l.Begin(false)
	require.NoError(t, err)
	m, ok := tx.Manifest().(*torusfield.Manifest)
	require.True(t, ok, "the parser's own type")
	assert.Equal(t, torusfield.DefaultManifest().Names(), m.Names())
	tx.Close()

	bare := New(l.Root(), Options{Features: testOptions.Features})
	commit(t, bare, map[string][]pyjson.Value{RelMethodology: {entry("b", "web_fetch")}})
	tx, err = bare.Begin(true)
	require.NoError(t, err)
	assert.Nil(t, tx.Manifest())
	tx.RefreshIndex(RelMethodology)
	assert.False(t, tx.IndexCurrent(RelMethodology), "no index without a parser, features or not")
	tx.Close()
	out, err := bare.Check(false, testNow, func(st CheckedState) ([]Problem, bool) {
		assert.Nil(t, st.Manifest, "the state check gets no manifest")
		return nil, false
	})
	require.NoError(t, err, "check: %s", pyjson.Indent(out))
	checkOK(t, l) // the bridge's workspace rebuilds the stale index and checks
}

// A damaged pinned manifest is the parser's to find: Begin reports it as
// the file's corruption, and check as a problem of the file.
func TestPinnedManifestParsedByCaller(t *testing.T) {
	l := newTestWorkspace(t)
	require.NoError(t, os.WriteFile(l.Path(RelPinned), []byte(`{"capabilities": 1}`), 0o644))
	_, err := l.Begin(false)
	require.Error(t, err)
	assert.Equal(t, fault.KindCorrupt, fault.AsError(err).Kind)
	_, err = l.Check(false, testNow, noStateCheck)
	require.Error(t, err)
	assert.Contains(t, err.Error(), RelPinned+": manifest: capabilities")

	// Without a parser the bytes are kept, not judged.
	_, err = New(l.Root(), Options{}).Begin(false)
	require.NoError(t, err)
}

// A reference workspace is read through its manifest: opened without a
// parser it is an internal error (the caller's), not a damaged workspace.
func TestReferenceNeedsManifests(t *testing.T) {
	_, err := openReference(New(t.TempDir(), Options{}))
	require.ErrorIs(t, err, errNoManifests)
	assert.Equal(t, fault.KindInternal, fault.AsError(err).Kind)
	_, err = openReference(New(t.TempDir(), testOptions))
	assert.NotErrorIs(t, err, errNoManifests)
}
