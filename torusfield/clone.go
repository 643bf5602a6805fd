package torusfield

import (
	"maps"
	"slices"
)

// Clone returns a copy of the engine that shares nothing it or its caller
// may change: the grid, the graph's edges, the artifacts, the bias, the
// trace, the schedule and the generator are copied. What no operation
// changes once New has built it (the manifest, the graph's nodes and
// adjacency, the capabilities' coordinates) is shared, as RestoreBytes
// shares it with the engine it restores into. A long-lived server keeps
// a decoded engine and hands each call that will not commit a clone of
// it, which costs a fraction of decoding the state again.
func (e *Engine) Clone() *Engine {
	n := *e
	n.Grid = e.Grid.clone()
	n.Graph = &Graph{Nodes: e.Graph.Nodes, Edges: slices.Clone(e.Graph.Edges), adj: e.Graph.adj}
	n.Artifacts = e.Artifacts.clone()
	p := *e.Policy
	p.bias = e.Policy.bias.clone()
	n.Policy = &p
	n.Trace = TraceLog{Theta: slices.Clone(e.Trace.Theta), Phi: slices.Clone(e.Trace.Phi)}
	n.Schedule = slices.Clone(e.Schedule)
	r := *e.rng
	n.rng = &r
	return &n
}

// Settle drops what the engine holds that its state file does not keep,
// so that it is what RestoreBytes of its AppendState gives: the θ steps
// before the saved tail, the generator's position (every boot starts
// from the seed), the diffusion scratch, the artifacts' promotion order. A server that keeps the engine a
// call committed, instead of decoding the file the call wrote, settles it
// first: the next call must see what a process that reads the file sees.
func (e *Engine) Settle() {
	if n := len(e.Trace.Theta); n > thetaTailSave {
		e.Trace.Theta = slices.Clone(e.Trace.Theta[n-thetaTailSave:])
	}
	e.rng = NewRandom(e.seed)
	clear(e.Grid.scratch)
	// The file keeps the artifacts by score, and a restored store knows
	// no other order.
	if e.Artifacts.Len() == 0 {
		e.Artifacts.list = nil
	} else {
		e.Artifacts.list = e.Artifacts.sorted()
	}
}

func (g *Grid) clone() *Grid {
	n := *g
	for i := range g.fields {
		n.fields[i] = slices.Clone(g.fields[i])
	}
	n.scratch = make([]float64, len(g.scratch))
	n.ports = g.ports.clone()
	return &n
}

func (s *ArtifactStore) clone() *ArtifactStore {
	n := &ArtifactStore{list: slices.Clone(s.list), byID: make(map[string]*Artifact, len(s.byID))}
	for i, a := range s.list {
		c := *a
		c.Meta = slices.Clone(a.Meta) // setLastDetectedT writes into it
		n.list[i], n.byID[a.ID] = &c, &c
	}
	return n
}

func (o *ordered[K]) clone() *ordered[K] {
	return &ordered[K]{keys: slices.Clone(o.keys), vals: slices.Clone(o.vals), pos: maps.Clone(o.pos)}
}
