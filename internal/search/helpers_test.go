package search

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Searches over storage alone: transactions that append entries and
// commit them, with no operation and no engine. The state file holds only
// the meta, and t counts commits.

var testNow = time.Date(2026, 11, 21, 21, 1, 0, 0, time.UTC)

// testState is a state file with nothing but its meta.
func testState(dst []byte, lead pyjson.Member) []byte {
	return pyjson.AppendCompact(dst, pyjson.Obj(lead))
}

// event is a commit's event as a caller gives it.
func event(op string, t int64) workspace.Event {
	return workspace.Event{Op: op, Args: pyjson.Obj(), Input: pyjson.NullValue(), Now: "2026-11-21T21:01:00+00:00",
		TBefore: t, TAfter: t + 1, Agent: "test"}
}

// newTestWorkspace creates a workspace on the embedded manifest whose
// first event appends one PP line, as init's does.
func newTestWorkspace(t *testing.T) *workspace.Workspace {
	t.Helper()
	l := workspace.New(filepath.Join(t.TempDir(), "ws"),
		workspace.Options{Features: workspace.Features{Append: knowledge.AppendFeatures, Fields: knowledge.FeatureFields},
			Manifests: workspace.Manifests{Parse: func(raw []byte) (workspace.Manifest, error) { return torusfield.ParseManifest(raw) }, Default: torusfield.DefaultManifestJSON}})
	tx, err := l.Create(false, testNow)
	require.NoError(t, err)
	defer tx.Close()
	tx.Meta.Model, tx.Meta.AgentID = workspace.LegacyModel, "test"
	tx.Pin(torusfield.DefaultManifestJSON(), torusfield.DefaultManifest())
	tx.Add(workspace.RelPPHistory, pyjson.Obj(pyjson.KV("t", 0)))
	_, err = tx.Commit(event("init", 0), testState)
	require.NoError(t, err)
	return l
}

// commit begins a transaction, adds entries to a data file and commits.
func commit(t *testing.T, l *workspace.Workspace, rel string, adds []pyjson.Value) {
	t.Helper()
	tx, err := l.Begin(true)
	require.NoError(t, err)
	defer tx.Close()
	for _, v := range adds {
		tx.Add(rel, v)
	}
	_, err = tx.Commit(event("test", tx.Meta.Seq), testState)
	require.NoError(t, err)
}

// checkOK runs check's storage checks (no engine state to judge) and
// requires them to pass.
func checkOK(t *testing.T, l *workspace.Workspace) {
	t.Helper()
	out, err := l.Check(false, testNow, func(workspace.CheckedState) ([]workspace.Problem, bool) { return nil, false })
	require.NoError(t, err, "check: %s", pyjson.Indent(out))
}

func entry(summary string, caps ...string) pyjson.Value {
	return pyjson.Obj(pyjson.KV("date", "2026-11-20"), pyjson.KV("summary", summary),
		pyjson.KV("capabilities", caps), pyjson.KV("keywords", []string{"pricing"}))
}
