package torusfield

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// CreditReport credits the direct edge with the whole step, the shortest
// path's edges each with the step divided by its length, and nothing when
// no path leads there (an override) or the step comes from no capability.
func TestCreditReport(t *testing.T) {
	reward := func(u float64) float64 { return 0.7*0.8 + 0.3*u } // the reference's reward of a success
	for _, tc := range []struct {
		name                   string
		from, to               string
		routed, path, override bool
		edges                  []int
		scale                  float64
	}{
		{"direct edge", "a", "b", true, false, false, []int{0}, 1},
		{"shortest path", "a", "d", false, true, false, []int{0, 2}, 0.5},
		{"no path", "e", "a", false, false, true, nil, 0},
		{"from no capability", "", "a", false, false, false, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &Graph{
				Nodes: []string{"a", "b", "c", "d", "e"},
				Edges: []Edge{{Src: "a", Dst: "b", U: 0.5, C: 0.1}, {Src: "a", Dst: "c"}, {Src: "b", Dst: "d", U: 0.2}, {Src: "c", Dst: "d"}, {Src: "d", Dst: "e"}},
			}
			g.reindex()
			e := &Engine{Graph: g, Grid: &Grid{}, ReinforceLR: 0.2}
			rc := e.CreditReport(tc.from, tc.to, 0.8, reward)
			assert.Equal(t, tc.routed, rc.Routed)
			assert.Equal(t, tc.path, rc.Path)
			assert.Equal(t, tc.override, rc.Override)
			var got []int
			for _, c := range rc.Credits {
				edge := g.Edges[c.Edge]
				got = append(got, c.Edge)
				// Each edge learns the model's reward at the share of the step.
				assert.Equal(t, reward(edge.U), c.Reward)
				assert.Equal(t, learn(c.OldW, 0.2*tc.scale, c.Reward-edge.C), c.NewW)
				assert.Equal(t, c.Reward-edge.C, c.Net)
			}
			assert.Equal(t, tc.edges, got)
			assert.Equal(t, 0.2, e.ReinforceLR, "the learning rate is restored")
			if len(rc.Credits) == 0 {
				assert.Equal(t, 0.8, rc.Reward, "no edge: the outcome's base reward")
			} else {
				assert.Equal(t, rc.Credits[len(rc.Credits)-1].Reward, rc.Reward, "the edge into the action speaks for the report")
			}
			ms := rc.Members(e)
			require.NotEmpty(t, ms)
			assert.Equal(t, "reinforcement", ms[0].Key)
		})
	}
}
