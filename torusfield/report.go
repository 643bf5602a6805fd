package torusfield

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// An IntegrityReport is the engine's health at a glance, with a digest of
// its whole state (the reference's ok_report).
type IntegrityReport struct {
	OK            bool
	Version       string
	Digest        string // SHA-256 of the state in stable JSON
	PP            PP
	Health        float64
	ArtifactCount int
	Wormholes     int
	Attractors    int
	Resonances    int
	PhiRecords    int
	T             int
	CursorNode    string
	Nodes, Edges  int
	// TopArtifacts describes the ten best artifacts: id, kind, score
	// (rounded to 4), the edge's ends for wormholes and resonances, the
	// payload, and edge_index last.
	TopArtifacts []pyjson.Value
}

// Report computes the integrity report.
func (e *Engine) Report() IntegrityReport {
	r := IntegrityReport{
		OK: true, Version: StateVersion, Digest: e.Digest(),
		PP: e.PP, Health: e.PP.Health(),
		ArtifactCount: e.Artifacts.Len(),
		Wormholes:     e.Artifacts.CountKind(KindWormhole),
		Attractors:    e.Artifacts.CountKind(KindAttractor),
		Resonances:    e.Artifacts.CountKind(KindResonance),
		PhiRecords:    len(e.Trace.Phi), T: e.Grid.T, CursorNode: e.Cursor.Node,
		Nodes: len(e.Graph.Nodes), Edges: len(e.Graph.Edges),
	}
	for _, a := range e.Artifacts.Top(10) {
		ms := []member{kv("id", str(a.ID)), kv("kind", str(a.Kind)), kv("score", num(pyjson.Round(a.Score, 4)))}
		ei, hasEdge := a.EdgeIndex()
		if (a.Kind == KindWormhole || a.Kind == KindResonance) && hasEdge && ei < len(e.Graph.Edges) {
			ed := e.Graph.Edges[ei]
			ms = append(ms, kv("src", str(ed.Src)), kv("dst", str(ed.Dst)))
		}
		for _, p := range a.Payload.Members() {
			if p.Key != "edge_index" {
				ms = setMember(ms, p.Key, p.Value)
			}
		}
		if v, ok := a.Payload.Get("edge_index"); ok {
			ms = setMember(ms, "edge_index", v)
		}
		r.TopArtifacts = append(r.TopArtifacts, pyjson.ObjectValue(ms))
	}
	return r
}

// setMember sets a key as a Python dict assignment does: in place when
// present, appended otherwise.
func setMember(ms []member, key string, v pyjson.Value) []member {
	for i := range ms {
		if ms[i].Key == key {
			ms[i].Value = v
			return ms
		}
	}
	return append(ms, kv(key, v))
}
