package dashboard

import (
	"cmp"
	"slices"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Graph is the capability graph as the page draws it: every capability,
// every edge of the engine's graph and every transition learned beside
// it, each with what was learned of it, and the artifacts on them.
type Graph struct {
	Nodes     []string
	Edges     []Edge // the engine's graph's edges, by index
	Beside    []Edge // transitions learned beside the graph: discovered, or a manifest's self-loop
	Artifacts []Artifact
}

// An Edge is a step between two capabilities.
type Edge struct {
	From, To string
	W, Prior float64 // the engine's weight and its prior (utility less cost); 0 beside the graph
	// Learned is the transition learned along it, as show lists it; null
	// when none was.
	Learned pyjson.Value
}

// An Artifact is one of the engine's artifacts, on an edge or a node.
type Artifact struct {
	ID, Kind   string
	Score      float64
	Edge       int    // the index of its edge in Graph.Edges, -1 when on none
	Node       string // with OnNode: its capability
	OnNode     bool
	Annotation any // its annotation's text, nil when none
}

// learnedKeys are the members of a learned transition the page shows.
var learnedKeys = []string{"successes", "of", "rate", "contexts", "last_seen", "discovered"}

// edges is how many edges the page draws.
func (g *Graph) edges() int { return len(g.Edges) + len(g.Beside) }

func (g *Graph) value() pyjson.Value {
	onEdge := map[int][]string{}
	onNode := map[string][]string{}
	arts := []pyjson.Value{}
	all := slices.Clone(g.Artifacts)
	slices.SortStableFunc(all, func(a, b Artifact) int { return cmp.Compare(b.Score, a.Score) })
	for _, a := range all {
		ms := []pyjson.Member{pyjson.KV("id", a.ID), pyjson.KV("kind", a.Kind), pyjson.KV("score", pyjson.Round(a.Score, 4))}
		if a.Edge >= 0 && a.Edge < len(g.Edges) {
			onEdge[a.Edge] = append(onEdge[a.Edge], a.Kind)
			ms = append(ms, pyjson.KV("from", g.Edges[a.Edge].From), pyjson.KV("to", g.Edges[a.Edge].To))
		} else if a.OnNode {
			onNode[a.Node] = append(onNode[a.Node], a.Kind)
			ms = append(ms, pyjson.KV("node", a.Node))
		}
		arts = append(arts, pyjson.ObjectValue(append(ms, pyjson.KV("annotation", a.Annotation))))
	}
	nodes := make([]pyjson.Value, len(g.Nodes))
	for i, n := range g.Nodes {
		nodes[i] = pyjson.Obj(pyjson.KV("id", n), pyjson.KV("artifacts", orEmpty(onNode[n])))
	}
	edges := make([]pyjson.Value, 0, g.edges())
	for i, ed := range g.Edges {
		edges = append(edges, ed.value(onEdge[i]))
	}
	for _, ed := range g.Beside {
		edges = append(edges, ed.value(nil))
	}
	return pyjson.Obj(pyjson.KV("nodes", nodes), pyjson.KV("edges", edges), pyjson.KV("artifacts", arts))
}

// value is the edge as the page draws it, with the kinds of the
// artifacts on it.
func (ed Edge) value(kinds []string) pyjson.Value {
	ms := []pyjson.Member{pyjson.KV("from", ed.From), pyjson.KV("to", ed.To), pyjson.KV("w", pyjson.Round(ed.W, 4)), pyjson.KV("prior", pyjson.Round(ed.Prior, 4))}
	if !ed.Learned.IsNull() {
		for _, k := range learnedKeys {
			x, _ := ed.Learned.Get(k)
			ms = append(ms, pyjson.KV(k, x))
		}
	}
	return pyjson.ObjectValue(append(ms, pyjson.KV("artifacts", orEmpty(kinds))))
}

func orEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}
