package torusfield

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// policyFormulas is testdata/formulas/policy.json: the reference's
// PolicyKernel.update, case by case, with the ordered edge_bias dict after
// every update.
type policyFormulas struct {
	Graph hexGraph `json:"graph"`
	Cases []struct {
		Name    string          `json:"name"`
		Params  map[string]hexf `json:"params"`
		Init    []pair[int]     `json:"init"`
		Updates [][]struct {
			Kind    string          `json:"kind"`
			Payload json.RawMessage `json:"payload"`
			Score   hexf            `json:"score"`
		} `json:"updates"`
		After [][]pair[int] `json:"after"`
	} `json:"cases"`
}

// TestPolicyUpdate: a wormhole adds its score capped to [0, 5] to its edge;
// an attractor adds 0.3·score capped to [0, 2] to every edge leaving its
// node; then every bias decays by 0.995 and those under 1e-6 are deleted
// (one exactly at 1e-6 stays). Keys keep the order in which they were
// created, and a deleted key that comes back goes to the end.
func TestPolicyUpdate(t *testing.T) {
	var f policyFormulas
	loadFormulas(t, "policy.json", &f)
	require.NotEmpty(t, f.Cases)
	g := f.Graph.graph()
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			p := policyWith(c.Init)
			for k, v := range c.Params {
				switch k {
				case "bias_decay":
					p.BiasDecay = float64(v)
				case "bias_cap":
					p.BiasCap = float64(v)
				default:
					t.Fatalf("unknown policy parameter %q", k)
				}
			}
			require.Len(t, c.After, len(c.Updates))
			for i, up := range c.Updates {
				var arts []*Artifact
				for _, a := range up {
					payload, err := pyjson.Parse(a.Payload)
					require.NoError(t, err)
					arts = append(arts, &Artifact{ID: "x", Kind: a.Kind, Payload: payload, Score: float64(a.Score)})
				}
				p.update(arts, g)
				requireBiases(t, c.After[i], p, fmt.Sprintf("after update %d", i+1))
			}
		})
	}
}

func requireBiases(t *testing.T, want []pair[int], p *Policy, what string) {
	t.Helper()
	var gotKeys, wantKeys []int
	var got []float64
	p.Biases(func(ei int, b float64) {
		gotKeys = append(gotKeys, ei)
		got = append(got, b)
	})
	for _, w := range want {
		wantKeys = append(wantKeys, w.Key)
	}
	require.Equal(t, wantKeys, gotKeys, "%s: keys in insertion order", what)
	for i, w := range want {
		requireBits(t, w.Val, got[i], "%s: bias of edge %d", what, w.Key)
		requireBits(t, w.Val, p.Bias(w.Key), "%s: Bias(%d)", what, w.Key)
	}
}

func TestPolicyDefaults(t *testing.T) {
	p := newPolicy()
	assert.Equal(t, 0.995, p.BiasDecay)
	assert.Equal(t, 5.0, p.BiasCap)
	assert.Zero(t, p.Bias(3), "an edge without bias has 0")
	p.update(nil, &Graph{})
	assert.Zero(t, p.bias.Len())
}
