package torusfield

import (
	"slices"
	"strings"

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

// reindex rebuilds the adjacency lists from the edge list. Edges leave
// their sources in runs (buildGraph adds them source by source), so each
// list is a window of one shared index slice; a source whose edges were
// not contiguous gets a list of its own.
func (g *Graph) reindex() {
	g.adj = make(map[string][]int, len(g.Nodes))
	all := make([]int, len(g.Edges))
	for i := range all {
		all[i] = i
	}
	for start := 0; start < len(g.Edges); {
		src := g.Edges[start].Src
		end := start + 1
		for end < len(g.Edges) && g.Edges[end].Src == src {
			end++
		}
		if prev, ok := g.adj[src]; ok {
			g.adj[src] = append(slices.Clip(prev), all[start:end]...)
		} else {
			g.adj[src] = all[start:end:end]
		}
		start = end
	}
}

// buildGraph resolves a manifest into a graph the way the reference does:
// each capability's labels resolve to capabilities (directly by name, else
// through the semantic map), self-loops are dropped, and the targets are
// added in sorted name order, each (src, dst) pair once.
func buildGraph(m *Manifest) *Graph {
	g := &Graph{Nodes: m.Names()}
	// Capability indexes in name order: Python sorts str by code point, and
	// UTF-8 byte order agrees.
	sorted := make([]int, len(m.Capabilities))
	for i := range sorted {
		sorted[i] = i
	}
	slices.SortFunc(sorted, func(a, b int) int { return strings.Compare(m.Capabilities[a].Name, m.Capabilities[b].Name) })
	target := make([]bool, len(m.Capabilities))
	for si, c := range m.Capabilities {
		clear(target)
		for _, label := range c.ConnectsTo {
			if i := m.Index(label); i >= 0 {
				target[i] = true
				continue
			}
			resolved, _ := m.Targets(label)
			for _, t := range resolved {
				target[m.Index(t)] = true
			}
		}
		target[si] = false // no self-loops
		for _, di := range sorted {
			if !target[di] {
				continue
			}
			d := m.Capabilities[di]
			g.Edges = append(g.Edges, Edge{
				Src: c.Name, Dst: d.Name,
				U: (c.U + d.U) / 2, C: (c.C + d.C) / 2, N: c.N, NIsInt: c.NIsInt,
				Meta: c.Meta,
			})
		}
	}
	g.reindex()
	return g
}
