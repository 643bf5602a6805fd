package workspace

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace/workspacetest"
)

// A side file is written by the commit alone, keeps the version the
// committed state named as .prev, and is read by its hash from either.
func TestSideFile(t *testing.T) {
	l := newTestWorkspace(t)
	const rel, derived = RelObservations, RelObservations + ".idx"
	v1, v2 := []byte(`{"v":1}`), []byte(`{"v":2}`)
	side := func(data []byte, prev string, commitIt bool) {
		t.Helper()
		tx, err := l.Begin(true)
		require.NoError(t, err)
		defer tx.Close()
		tx.SetSideFile(rel, []byte("replaced before the commit"), prev)
		tx.SetSideFile(rel, data, prev)
		tx.SetDerived(derived, append([]byte("index of "), data...))
		if commitIt {
			_, err = tx.Commit(event("side", int64(tx.Meta.Seq)), testState)
			require.NoError(t, err)
		}
	}
	read := func(rel string) ([]byte, error) { return l.ReadFile(rel) }

	before := workspacetest.Fingerprint(t, l.Root())
	side(v1, "", false)
	assert.Equal(t, before, workspacetest.Fingerprint(t, l.Root()), "nothing written without a commit")

	side(v1, "", true)
	got, err := ReadSideFile(read, rel, sha256hex(v1))
	require.NoError(t, err)
	assert.Equal(t, v1, got)
	_, err = os.Stat(l.path(rel + ".prev"))
	assert.True(t, os.IsNotExist(err), "no previous version to keep")

	side(v2, sha256hex(v1), true)
	for _, v := range [][]byte{v1, v2} {
		got, err := ReadSideFile(read, rel, sha256hex(v))
		require.NoError(t, err)
		assert.Equal(t, v, got, "the file or its .prev")
	}
	idx, err := l.ReadFile(derived)
	require.NoError(t, err)
	assert.Equal(t, "index of "+string(v2), string(idx))

	_, err = ReadSideFile(read, rel, sha256hex([]byte("other")))
	require.Error(t, err)
	assert.Equal(t, fault.KindCorrupt, fault.AsError(err).Kind)
	checkOK(t, l)
}
