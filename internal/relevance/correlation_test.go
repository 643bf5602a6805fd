package relevance

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// methodologySource is a Source over a workspace whose methodology holds
// entries about the capabilities given, one entry per list.
func methodologySource(t *testing.T, about ...[]string) *Source {
	t.Helper()
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	state := func(dst []byte, lead pyjson.Member) []byte { return pyjson.AppendCompact(dst, pyjson.Obj(lead)) }
	l := workspace.New(filepath.Join(t.TempDir(), "ws"), workspace.Options{
		Features: workspace.Features{Append: knowledge.AppendFeatures, Fields: knowledge.FeatureFields},
		Manifests: workspace.Manifests{Parse: func(raw []byte) (workspace.Manifest, error) { return torusfield.ParseManifest(raw) },
			Default: torusfield.DefaultManifestJSON}})
	tx, err := l.Create(false, now)
	require.NoError(t, err)
	tx.Meta.Model, tx.Meta.AgentID = workspace.LegacyModel, "test"
	tx.Pin(torusfield.DefaultManifestJSON(), torusfield.DefaultManifest())
	for i, caps := range about {
		tx.Add(workspace.RelMethodology, pyjson.Obj(pyjson.KV("date", "2026-11-20"),
			pyjson.KV("summary", "entry "+string(rune('a'+i))), pyjson.KV("capabilities", caps)))
	}
	_, err = tx.Commit(workspace.Event{Op: "init", Args: pyjson.Obj(), Input: pyjson.NullValue(),
		Now: "2026-11-21T00:00:00+00:00", Agent: "test"}, state)
	require.NoError(t, err)
	tx.Close()
	tx, err = l.Begin(false)
	require.NoError(t, err)
	t.Cleanup(tx.Close)
	return &Source{Tx: tx, Manifest: torusfield.DefaultManifest(), Now: now}
}

// TestCorrelations: only a wormhole is correlated, with at most two
// entries about either of its capabilities; one no entry is about is left
// out.
func TestCorrelations(t *testing.T) {
	s := methodologySource(t, []string{"read"}, []string{"edit"}, []string{"read", "edit"}, []string{"test"})
	art := func(id, kind, from, to string) pyjson.Value {
		return pyjson.Obj(pyjson.KV("id", id), pyjson.KV("kind", kind), pyjson.KV("from", from), pyjson.KV("to", to))
	}
	out, err := s.Correlations([]pyjson.Value{
		art("w1", torusfield.KindWormhole, "read", "edit"),
		art("a1", torusfield.KindAttractor, "test", ""),
		art("w2", torusfield.KindWormhole, "deploy", "deploy"),
	})
	require.NoError(t, err)
	require.Len(t, out, 1)
	assert.Equal(t, "w1", out[0].StrOf("artifact_id"))
	sugg, _ := out[0].Get("suggested_methodology")
	assert.Len(t, sugg.Items(), 2)

	none, err := s.Correlations(nil)
	require.NoError(t, err)
	assert.Nil(t, none)
}

// TestMisalignments: of the five most used actions, those no methodology
// entry is about.
func TestMisalignments(t *testing.T) {
	s := methodologySource(t, []string{"read"}, []string{"f"})
	var lines []pyjson.Value
	for i, a := range []string{"a", "b", "c", "d", "read", "f"} {
		for range 7 - i {
			lines = append(lines, pyjson.Obj(pyjson.KV("action", a)))
		}
	}
	out, err := s.Misalignments(history.Allocate(lines))
	require.NoError(t, err)
	var names []string
	for _, m := range out {
		names = append(names, m.StrOf("action"))
	}
	assert.Equal(t, []string{"a", "b", "c", "d"}, names, "read has an entry; f is the sixth")
	empty, err := s.Misalignments(nil)
	require.NoError(t, err)
	assert.Equal(t, []pyjson.Value{}, empty)
}
