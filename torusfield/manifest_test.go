package torusfield

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// manifestFormulas is testdata/formulas/manifest.json: the reference's
// EdgeGraph.from_capabilities for small manifests and the embedded one, and
// the state files of two tiny engines.
type manifestFormulas struct {
	Cases []struct {
		Name     string          `json:"name"`
		Manifest json.RawMessage `json:"manifest"`
		Nodes    []string        `json:"nodes"`
		Edges    []struct {
			Src  string `json:"src"`
			Dst  string `json:"dst"`
			U    hexf   `json:"u"`
			C    hexf   `json:"c"`
			N    hexf   `json:"n"`
			Meta string `json:"meta"` // json.dumps(meta, ensure_ascii=False)
		} `json:"edges"`
	} `json:"cases"`
	States []struct {
		Name      string          `json:"name"`
		Manifest  json.RawMessage `json:"manifest"`
		Steps     int             `json:"steps"`
		ThetaBins int             `json:"theta_bins"`
		PhiBins   int             `json:"phi_bins"`
		State     string          `json:"state"` // json.dumps(export_state(), indent=2, ensure_ascii=False)
	} `json:"states"`
}

// TestManifestEdgesMatchReference: the edges (src, dst, u, c, n, meta) and
// their order equal the reference's from_capabilities: targets sorted by
// code point, a capability name winning over a semantic label of the same
// name, self-loops and duplicate targets dropped, u and c the means of the
// two ends, n and meta the source's.
func TestManifestEdgesMatchReference(t *testing.T) {
	var f manifestFormulas
	loadFormulas(t, "manifest.json", &f)
	require.NotEmpty(t, f.Cases)
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			m, err := ParseManifest(c.Manifest)
			require.NoError(t, err)
			for _, g := range []*Graph{buildGraph(m), New(m, Options{ThetaBins: 3, PhiBins: 4}).Graph} {
				assert.Equal(t, c.Nodes, g.Nodes)
				require.Len(t, g.Edges, len(c.Edges))
				for i, w := range c.Edges {
					e := g.Edges[i]
					assert.Equal(t, w.Src+"→"+w.Dst, e.Src+"→"+e.Dst, "edge %d", i)
					requireBits(t, float64(w.U), e.U, "edge %d u", i)
					requireBits(t, float64(w.C), e.C, "edge %d c", i)
					requireBits(t, float64(w.N), e.N, "edge %d n", i)
					assert.Equal(t, w.Meta, string(pyjson.AppendDumps(nil, e.Meta)), "edge %d meta", i)
					assert.Equal(t, i, g.Find(e.Src, e.Dst))
				}
			}
		})
	}
}

func TestDefaultManifestMatchesFixture(t *testing.T) {
	m := DefaultManifest()
	assert.Len(t, m.Capabilities, 45)
	assert.Len(t, buildGraph(m).Edges, 249)
	ref, err := ParseManifest(fixture(t, "aegis-manifest.json"))
	require.NoError(t, err)
	assert.Equal(t, buildGraph(ref).Edges, buildGraph(m).Edges)
}

// TestManifestStateMatchesReference boots a two-capability engine on a 3×4
// grid for 24 steps (no φ-cycle yet) and compares the state file with the reference's.
func TestManifestStateMatchesReference(t *testing.T) {
	var f manifestFormulas
	loadFormulas(t, "manifest.json", &f)
	require.NotEmpty(t, f.States)
	for _, c := range f.States {
		t.Run(c.Name, func(t *testing.T) {
			m, err := ParseManifest(c.Manifest)
			require.NoError(t, err)
			e := New(m, Options{ThetaBins: c.ThetaBins, PhiBins: c.PhiBins})
			e.Run(c.Steps)
			assert.Equal(t, c.State, string(e.MarshalState()))
		})
	}
}

func TestParseManifestRejects(t *testing.T) {
	for _, c := range []struct {
		name, doc, entry, msg string
	}{
		{"not JSON", `{"capabilities": [`, "", "invalid JSON"},
		{"not JSON either", `capabilities`, "", "invalid JSON"},
		{"overflowing number", `{"capabilities": [{"name": "a", "u": 1e999}]}`, "", "invalid JSON"},
		{"NaN literal", `{"capabilities": [{"name": "a", "u": NaN}]}`, "", "invalid JSON"},
		{"array document", `[{"name": "a"}]`, "", "JSON object"},
		{"string document", `"a"`, "", "JSON object"},
		{"no capabilities", `{"semantic_map": {}}`, "capabilities", "non-empty list"},
		{"empty list", `{"capabilities": []}`, "capabilities", "non-empty list"},
		{"capabilities not a list", `{"capabilities": {"name": "a"}}`, "capabilities", "non-empty list"},
		{"capabilities null", `{"capabilities": null}`, "capabilities", "non-empty list"},
		{"capability not an object", `{"capabilities": ["a"]}`, "capabilities[0]", "must be an object"},
		{"duplicate names", `{"capabilities": [{"name": "a"}, {"name": "b"}, {"name": "a"}]}`,
			`capabilities[2] "a"`, "duplicate"},
		{"unknown label", `{"capabilities": [{"name": "a", "connects_to": ["b"]}]}`,
			`capabilities[0] "a"`, `connects_to "b" is neither a capability nor a semantic_map label`},
		{"unknown label, second entry", `{"capabilities": [{"name": "a"}, {"name": "b", "connects_to": ["a", "x"]}],
			"semantic_map": {"y": ["a"]}}`, `capabilities[1] "b"`, `"x"`},
		{"semantic target unknown", `{"capabilities": [{"name": "a", "connects_to": ["x"]}],
			"semantic_map": {"x": ["a", "zz"]}}`, `semantic_map["x"]`, `unknown capability "zz"`},
		{"semantic map not an object", `{"capabilities": [{"name": "a"}], "semantic_map": ["a"]}`,
			"semantic_map", "must be an object"},
		{"semantic targets not a list", `{"capabilities": [{"name": "a"}], "semantic_map": {"x": "a"}}`,
			`semantic_map["x"]`, "list of capability names"},
		{"semantic target not a string", `{"capabilities": [{"name": "a"}], "semantic_map": {"x": [1]}}`,
			`semantic_map["x"]`, "list of capability names"},
		{"u string", `{"capabilities": [{"name": "a", "u": "0.5"}]}`, `capabilities[0] "a"`, "u must be a number"},
		{"c bool", `{"capabilities": [{"name": "a", "c": true}]}`, `capabilities[0] "a"`, "c must be a number"},
		{"n null", `{"capabilities": [{"name": "a", "n": null}]}`, `capabilities[0] "a"`, "n must be a number"},
		{"u list", `{"capabilities": [{"name": "a", "u": [0.5]}]}`, `capabilities[0] "a"`, "u must be a number"},
		{"u below 0", `{"capabilities": [{"name": "a", "u": -0.1}]}`, `capabilities[0] "a"`, "u must be in [0, 1]"},
		{"c above 1", `{"capabilities": [{"name": "a", "c": 1.0000001}]}`, `capabilities[0] "a"`, "c must be in [0, 1]"},
		{"n int above 1", `{"capabilities": [{"name": "a", "n": 2}]}`, `capabilities[0] "a"`, "n must be in [0, 1]"},
		{"u tiny negative", `{"capabilities": [{"name": "a", "u": -1e-300}]}`, `capabilities[0] "a"`, "u must be in [0, 1]"},
		{"name empty", `{"capabilities": [{"name": ""}]}`, "capabilities[0]", "must not be empty"},
		{"name missing", `{"capabilities": [{"connects_to": []}]}`, "capabilities[0]", "name must be a string"},
		{"name not a string", `{"capabilities": [{"name": 5}]}`, "capabilities[0]", "name must be a string"},
		{"name with a control character", `{"capabilities": [{"name": "a\u0001b"}]}`,
			`capabilities[0] "a\x01b"`, "control characters"},
		{"name with a newline", `{"capabilities": [{"name": "ok"}, {"name": "a\nb"}]}`,
			`capabilities[1] "a\nb"`, "control characters"},
		{"name with DEL", `{"capabilities": [{"name": "a\u007f"}]}`, `capabilities[0] "a\x7f"`, "control characters"},
		{"name padded", `{"capabilities": [{"name": " a"}]}`, `capabilities[0] " a"`, "white space"},
		{"connects_to not a list", `{"capabilities": [{"name": "a", "connects_to": "b"}]}`,
			`capabilities[0] "a"`, "connects_to must be a list of strings"},
		{"connects_to holds a number", `{"capabilities": [{"name": "a", "connects_to": [1]}]}`,
			`capabilities[0] "a"`, "connects_to must be a list of strings"},
		{"meta not an object", `{"capabilities": [{"name": "a", "meta": []}]}`, `capabilities[0] "a"`, "meta must be an object"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := ParseManifest([]byte(c.doc))
			require.Error(t, err)
			assert.Nil(t, m)
			var me *ManifestError
			require.True(t, errors.As(err, &me), "%T is not a *ManifestError", err)
			assert.Equal(t, c.entry, me.Entry)
			assert.Contains(t, me.Msg, c.msg)
			if c.entry != "" {
				assert.True(t, strings.HasPrefix(err.Error(), "manifest: "+c.entry+": "), err.Error())
			}
		})
	}
}

func TestParseManifestAccepts(t *testing.T) {
	doc := `{"capabilities": [
		{"name": "a", "connects_to": ["b", "lbl"], "u": 1, "c": 0, "n": 0.25, "meta": {"k": [1, "x"]}},
		{"name": "b"},
		{"name": "c", "connects_to": null, "meta": null, "u": 0.0, "c": 1.0, "n": 1},
		{"name": "line\u2028sep é"}
	], "semantic_map": {"lbl": ["c", "a"], "empty": []}}`
	m, err := ParseManifest([]byte(doc))
	require.NoError(t, err)
	assert.Equal(t, doc, string(m.Bytes()))
	assert.Equal(t, []string{"a", "b", "c", "line\u2028sep é"}, m.Names())

	a := m.Capabilities[0]
	assert.Equal(t, []float64{1, 0, 0.25}, []float64{a.U, a.C, a.N})
	assert.Equal(t, `{"k": [1, "x"]}`, string(pyjson.AppendDumps(nil, a.Meta)))
	b := m.Capabilities[1]
	assert.Equal(t, []float64{0.5, 0.2, 0.1}, []float64{b.U, b.C, b.N}, "the reference's defaults")
	assert.Equal(t, `{}`, string(pyjson.AppendDumps(nil, b.Meta)))
	assert.Empty(t, b.ConnectsTo)
	c := m.Capabilities[2]
	assert.Equal(t, []float64{0, 1, 1}, []float64{c.U, c.C, c.N})

	targets, ok := m.Targets("lbl")
	assert.True(t, ok)
	assert.Equal(t, []string{"c", "a"}, targets)
	_, ok = m.Targets("empty")
	assert.True(t, ok)
	assert.Equal(t, 2, m.Index("c"))
	assert.Equal(t, -1, m.Index("zz"))

	g := buildGraph(m)
	var pairs []string
	for _, e := range g.Edges {
		pairs = append(pairs, e.Src+"→"+e.Dst)
	}
	// a's labels give {b} ∪ {c, a} minus the self-loop, sorted.
	assert.Equal(t, []string{"a→b", "a→c"}, pairs)
	assert.Equal(t, 0.25, g.Edges[0].N)
	assert.Equal(t, (1+0.5)/2, g.Edges[0].U)
	assert.Equal(t, (0+1.0)/2, g.Edges[1].C)

	// No semantic_map at all: direct names still resolve.
	m, err = ParseManifest([]byte(`{"capabilities": [{"name": "x", "connects_to": ["y"]}, {"name": "y"}]}`))
	require.NoError(t, err)
	assert.Len(t, buildGraph(m).Edges, 1)
}
