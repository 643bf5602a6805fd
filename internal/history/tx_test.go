package history

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// testWorkspace creates a workspace on the embedded manifest with the
// data files' entries committed (no operation, no engine: the state file
// holds only the meta), and returns a transaction that reads it.
func testWorkspace(t *testing.T, files map[string][]pyjson.Value) *workspace.Tx {
	t.Helper()
	state := func(dst []byte, lead pyjson.Member) []byte { return pyjson.AppendCompact(dst, pyjson.Obj(lead)) }
	l := workspace.New(filepath.Join(t.TempDir(), "ws"), workspace.Options{Manifests: workspace.Manifests{
		Parse:   func(raw []byte) (workspace.Manifest, error) { return torusfield.ParseManifest(raw) },
		Default: torusfield.DefaultManifestJSON}})
	tx, err := l.Create(false, time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	tx.Meta.Model, tx.Meta.AgentID = workspace.LegacyModel, "test"
	tx.Pin(torusfield.DefaultManifestJSON(), torusfield.DefaultManifest())
	for _, rel := range []string{workspace.RelActionLog, workspace.RelMethodology, workspace.RelPPHistory} {
		for _, v := range files[rel] {
			tx.Add(rel, v)
		}
	}
	_, err = tx.Commit(workspace.Event{Op: "init", Args: pyjson.Obj(), Input: pyjson.NullValue(),
		Now: "2026-11-21T00:00:00+00:00", Agent: "test"}, state)
	require.NoError(t, err)
	tx.Close()
	tx, err = l.Begin(false)
	require.NoError(t, err)
	t.Cleanup(tx.Close)
	return tx
}
