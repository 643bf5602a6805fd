package torusfield

import (
	"slices"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// An Edge is a possible transition from one capability to another. Only W
// is learned; U, C and N come from the manifest on every boot.
type Edge struct {
	Src, Dst string
	W        float64 // reinforcement weight, clamped to [-2.5, 2.5]
	U        float64 // utility expectation: mean of the two ends
	C        float64 // cost or risk: mean of the two ends
	N        float64 // novelty: the source's
	NIsInt   bool    // the manifest wrote n as an integer (see Capability)
	Meta     pyjson.Value
}

// novelty is n as the state file writes it: an int when the manifest gave one.
func novelty(n float64, isInt bool) pyjson.Value {
	if isInt {
		return pyjson.IntValue(int64(n))
	}
	return pyjson.FloatValue(n)
}

// A Graph holds the capabilities and their edges. An edge's index is its
// position in Edges, which is stable for a given manifest.
type Graph struct {
	Nodes []string
	Edges []Edge
	adj   map[string][]int
}

// Out returns the indexes of the edges leaving node, in index order.
func (g *Graph) Out(node string) []int { return g.adj[node] }

// Find returns the index of the edge src→dst, or -1.
func (g *Graph) Find(src, dst string) int {
	for _, ei := range g.adj[src] {
		if g.Edges[ei].Dst == dst {
			return ei
		}
	}
	return -1
}

// reindex rebuilds the adjacency lists from the edge list.
func (g *Graph) reindex() {
	g.adj = make(map[string][]int, len(g.Nodes))
	for i, e := range g.Edges {
		g.adj[e.Src] = append(g.adj[e.Src], i)
	}
}

// buildGraph resolves a manifest into a graph the way the reference does:
// each capability's labels resolve to capabilities (directly by name, else
// through the semantic map), self-loops are dropped, and the targets are
// added in sorted name order, each (src, dst) pair once.
func buildGraph(m *Manifest) *Graph {
	g := &Graph{Nodes: m.Names()}
	for _, c := range m.Capabilities {
		targets := map[string]bool{}
		for _, label := range c.ConnectsTo {
			if m.Has(label) {
				if label != c.Name {
					targets[label] = true
				}
				continue
			}
			resolved, _ := m.Targets(label)
			for _, t := range resolved {
				if t != c.Name {
					targets[t] = true
				}
			}
		}
		names := make([]string, 0, len(targets))
		for t := range targets {
			names = append(names, t)
		}
		slices.Sort(names) // Python sorts str by code point; UTF-8 byte order agrees
		for _, dst := range names {
			d := m.Capabilities[m.Index(dst)]
			g.Edges = append(g.Edges, Edge{
				Src: c.Name, Dst: dst,
				U: (c.U + d.U) / 2, C: (c.C + d.C) / 2, N: c.N, NIsInt: c.NIsInt,
				Meta: c.Meta,
			})
		}
	}
	g.reindex()
	return g
}
