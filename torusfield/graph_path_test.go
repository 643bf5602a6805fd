package torusfield

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// ShortestPath takes the fewest edges, and of paths as short, the one
// whose edges come first in index order: a report's credit goes to the
// same edges on every run.
func TestShortestPath(t *testing.T) {
	g := &Graph{
		Nodes: []string{"a", "b", "c", "d", "e"},
		Edges: []Edge{
			{Src: "a", Dst: "b"}, // 0
			{Src: "a", Dst: "c"}, // 1
			{Src: "b", Dst: "d"}, // 2
			{Src: "c", Dst: "d"}, // 3
			{Src: "c", Dst: "a"}, // 4
			{Src: "d", Dst: "e"}, // 5
		},
	}
	g.reindex()
	for _, tc := range []struct {
		name     string
		src, dst string
		want     []int
	}{
		{"adjacent", "a", "b", []int{0}},
		{"tie goes to the lower indexes", "a", "d", []int{0, 2}},
		{"three steps", "a", "e", []int{0, 2, 5}},
		{"through a cycle", "c", "b", []int{4, 0}},
		{"same node", "a", "a", nil},
		{"unreachable", "e", "a", nil},
		{"unknown source", "x", "a", nil},
		{"unknown target", "a", "x", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, g.ShortestPath(tc.src, tc.dst))
		})
	}
}
