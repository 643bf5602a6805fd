package workspace

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Storage on its own: transactions that append entries and commit them,
// with no operation and no engine. The state file holds only the meta
// (storage never reads the engine's state), and t counts commits.

var testNow = time.Date(2026, 11, 21, 21, 1, 0, 0, time.UTC)

// testOptions open a workspace with the index of a bridge's.
var testOptions = Options{Features: Features{Append: knowledge.AppendFeatures, Fields: knowledge.FeatureFields},
	Manifests: testManifests}

// testManifests parse manifests as the bridge does.
var testManifests = Manifests{Parse: func(raw []byte) (Manifest, error) { return torusfield.ParseManifest(raw) }, Default: torusfield.DefaultManifestJSON}

// testState is a state file with nothing but its meta.
func testState(dst []byte, lead pyjson.Member) []byte {
	return pyjson.AppendCompact(dst, pyjson.Obj(lead))
}

// noStateCheck judges no engine state: check's storage checks only.
func noStateCheck(CheckedState) ([]Problem, bool) { return nil, false }

// event is a commit's event as a caller gives it.
func event(op string, t int64) Event {
	return Event{Op: op, Args: pyjson.Obj(), Input: pyjson.NullValue(), Now: "2026-11-21T21:01:00+00:00",
		TBefore: t, TAfter: t + 1, Agent: "test"}
}

// newTestWorkspace creates a workspace on the embedded manifest whose
// first event appends one PP line, as init's does.
func newTestWorkspace(t *testing.T) *Workspace {
	t.Helper()
	return newTestWorkspaceWith(t, testOptions)
}

// newTestWorkspaceWith is newTestWorkspace with options of the test's.
func newTestWorkspaceWith(t *testing.T, opts Options) *Workspace {
	t.Helper()
	l := New(filepath.Join(t.TempDir(), "ws"), opts)
	tx, err := l.Create(false, testNow)
	require.NoError(t, err)
	defer tx.Close()
	tx.Meta.Model, tx.Meta.AgentID = LegacyModel, "test"
	tx.Pin(torusfield.DefaultManifestJSON(), torusfield.DefaultManifest())
	tx.Add(RelPPHistory, pyjson.Obj(pyjson.KV("t", 0)))
	_, err = tx.Commit(event("init", 0), testState)
	require.NoError(t, err)
	return l
}

// commit begins a transaction, adds entries to data files and commits.
func commit(t *testing.T, l *Workspace, adds map[string][]pyjson.Value) {
	t.Helper()
	tx, err := l.Begin(true)
	require.NoError(t, err)
	defer tx.Close()
	for _, rel := range DataFiles() { // a fixed order
		for _, v := range adds[rel] {
			tx.Add(rel, v)
		}
	}
	_, err = tx.Commit(event("test", tx.Meta.Seq), testState)
	require.NoError(t, err)
}

// checkOK requires check to find nothing wrong.
func checkOK(t *testing.T, l *Workspace) {
	t.Helper()
	out, err := l.Check(false, testNow, noStateCheck)
	require.NoError(t, err, "check: %s", pyjson.Indent(out))
}

func entry(summary string, caps ...string) pyjson.Value {
	return pyjson.Obj(pyjson.KV("date", "2026-11-20"), pyjson.KV("summary", summary),
		pyjson.KV("capabilities", caps), pyjson.KV("keywords", []string{"pricing"}))
}
