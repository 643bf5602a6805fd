package relevance

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A task's capabilities are those named that the manifest has, those its
// words evoke, and those of a recent methodology entry that shares a
// keyword with it.
func TestSourceResolve(t *testing.T) {
	opts := workspace.Options{Features: workspace.Features{Append: knowledge.AppendFeatures, Fields: knowledge.FeatureFields},
		Manifests: workspace.Manifests{Parse: func(raw []byte) (workspace.Manifest, error) { return torusfield.ParseManifest(raw) },
			Default: torusfield.DefaultManifestJSON}}
	tx, err := workspace.New(filepath.Join(t.TempDir(), "ws"), opts).Create(false, time.Unix(0, 0))
	require.NoError(t, err)
	defer tx.Close()
	man := torusfield.DefaultManifest()
	tx.Pin(torusfield.DefaultManifestJSON(), man)
	src := &Source{Tx: tx, Manifest: man}

	got, err := src.Resolve("tidy the widgets", []string{"read", "no_such_tool"})
	require.NoError(t, err)
	assert.Equal(t, []string{"read"}, got)

	tx.Add(workspace.RelMethodology, pyjson.Obj(pyjson.KV("summary", "widgets want a fetch first"),
		pyjson.KV("keywords", []string{"Widgets"}), pyjson.KV("capabilities", []string{"web_fetch", "no_such_tool"})))
	got, err = src.Resolve("tidy the widgets", []string{"read"})
	require.NoError(t, err)
	assert.Equal(t, []string{"read", "web_fetch"}, got)
}

// A model that governs knowledge shows what its knowledge context found,
// without the reference's search (the Basis has no Source to search
// with), and what it left out; the basis's capabilities, energy and
// penalty go into the advice whatever the model.
func TestBasisCompleteGoverned(t *testing.T) {
	hit := func(s string) []pyjson.Value { return []pyjson.Value{pyjson.Obj(pyjson.KV("summary", s))} }
	b := Basis{Resolved: []string{"read"}, Energy: []torusfield.NodeEnergy{{Node: "read", Energy: 1.5}},
		PenaltyOrder: []string{"edit"}, Penalty: map[string]float64{"edit": 0.5}, governs: true,
		Found: Context{Methodology: hit("m"), DeadEnds: hit("d"), Judgment: hit("j"), LeftOut: pyjson.Obj(pyjson.KV("methodology", 2))}}
	var a Advice
	assert.NoError(t, b.Complete(nil, &a, 10))
	assert.Equal(t, Advice{Resolved: b.Resolved, Context: b.Energy, PenaltyOrder: b.PenaltyOrder, Penalty: b.Penalty,
		Methodology: hit("m"), DeadEnds: hit("d"), Judgment: hit("j"), Governs: true, LeftOut: b.Found.LeftOut}, a)
}
