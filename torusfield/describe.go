package torusfield

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// DescribeArtifact is an artifact's id, kind and score (rounded to 4) with
// its edge's ends or its node (withLocation).
func (e *Engine) DescribeArtifact(id string, withLocation bool) pyjson.Value {
	a, _ := e.Artifacts.Get(id)
	ms := []pyjson.Member{pyjson.KV("id", id), pyjson.KV("kind", a.Kind), pyjson.KV("score", pyjson.Round(a.Score, 4))}
	if !withLocation {
		return pyjson.ObjectValue(ms)
	}
	if ei, ok := a.EdgeIndex(); (a.Kind == KindWormhole || a.Kind == KindResonance) && ok {
		if ei < len(e.Graph.Edges) {
			ms = append(ms, pyjson.KV("from", e.Graph.Edges[ei].Src), pyjson.KV("to", e.Graph.Edges[ei].Dst))
		}
	} else if node, ok := a.Node(); a.Kind == KindAttractor && ok {
		ms = append(ms, pyjson.KV("node", node))
	}
	return pyjson.ObjectValue(ms)
}

// DescribeArtifacts describes artifacts by id (DescribeArtifact), an
// empty list for none.
func (e *Engine) DescribeArtifacts(ids []string, withLocation bool) []pyjson.Value {
	out := make([]pyjson.Value, 0, len(ids))
	for _, id := range ids {
		out = append(out, e.DescribeArtifact(id, withLocation))
	}
	return out
}
