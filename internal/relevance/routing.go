package relevance

import (
	"cmp"
	"slices"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// ScorePaths scores the edges leaving src as the reference's advisory does:
// the router's score with context boost and penalty, rounded, each with its
// components and the annotation (anns: by artifact id) of a wormhole on
// the edge, sorted by descending (rounded) score, ties in edge order.
func ScorePaths(e *torusfield.Engine, anns map[string]pyjson.Value, src string, context, penalty map[string]float64) []pyjson.Value {
	type scored struct {
		score float64
		v     pyjson.Value
	}
	var out []scored
	for _, es := range e.Router.Score(e.Graph, e.Policy, src, context, penalty) {
		edge := e.Graph.Edges[es.Edge]
		var annotation any
		for _, a := range e.Artifacts.All() {
			if ei, ok := a.EdgeIndex(); a.Kind == torusfield.KindWormhole && ok && ei == es.Edge {
				if ann, ok := anns[a.ID]; ok && len(ann.Members()) > 0 {
					if gp := ann.StrOf("generalized_pattern"); gp != "" {
						annotation = gp
					} else if t, ok := ann.Get("text"); ok {
						annotation = t
					}
				}
				break
			}
		}
		score := pyjson.Round(es.Score, 4)
		out = append(out, scored{score, pyjson.Obj(
			pyjson.KV("to", es.To),
			pyjson.KV("edge_index", es.Edge),
			pyjson.KV("score", score),
			pyjson.KV("context_boost", pyjson.Round(es.ContextBoost, 4)),
			pyjson.KV("penalty", pyjson.Round(es.Penalty, 4)),
			pyjson.KV("components", pyjson.Obj(
				pyjson.KV("utility", pyjson.Round(edge.U, 3)),
				pyjson.KV("cost", pyjson.Round(-edge.C, 3)),
				pyjson.KV("weight", pyjson.Round(edge.W, 3)),
				pyjson.KV("novelty", pyjson.Round(edge.N, 3)),
				pyjson.KV("bias", pyjson.Round(es.Bias, 3)),
				pyjson.KV("context_energy", pyjson.Round(es.ContextBoost, 3)),
				pyjson.KV("penalty", pyjson.Round(es.Penalty, 3)),
			)),
			pyjson.KV("annotation", annotation),
		)})
	}
	slices.SortStableFunc(out, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	vals := make([]pyjson.Value, len(out))
	for i, o := range out {
		vals[i] = o.v
	}
	return vals
}

// Enrich describes the best artifacts of a kind with their edge or node and
// their annotation (anns: by artifact id).
func Enrich(e *torusfield.Engine, anns map[string]pyjson.Value, kind string, limit int) []pyjson.Value {
	arts := e.Artifacts.ByKind(kind)
	slices.SortStableFunc(arts, func(a, b *torusfield.Artifact) int { return cmp.Compare(b.Score, a.Score) })
	out := []pyjson.Value{}
	for _, a := range arts[:min(limit, len(arts))] {
		ms := []pyjson.Member{pyjson.KV("id", a.ID), pyjson.KV("score", pyjson.Round(a.Score, 4))}
		if ei, ok := a.EdgeIndex(); (kind == torusfield.KindWormhole || kind == torusfield.KindResonance) && ok {
			if ei < len(e.Graph.Edges) {
				edge := e.Graph.Edges[ei]
				ms = append(ms, pyjson.KV("from", edge.Src), pyjson.KV("to", edge.Dst))
			}
			ms = append(ms, pyjson.KV("hits", payloadOr(a, "hits")), pyjson.KV("mean_net", payloadOr(a, "mean_net")))
		} else if node, ok := a.Node(); kind == torusfield.KindAttractor && ok {
			ms = append(ms, pyjson.KV("node", node), pyjson.KV("frequency", payloadOr(a, "frequency")))
		}
		ann, annotated := anns[a.ID]
		var text any
		if annotated && len(ann.Members()) > 0 {
			text, _ = ann.Get("text")
		}
		ms = append(ms, pyjson.KV("annotation", text), pyjson.KV("annotated", annotated))
		out = append(out, pyjson.ObjectValue(ms))
	}
	return out
}

// payloadOr returns a payload field, or the int 0 the reference defaults to.
func payloadOr(a *torusfield.Artifact, key string) pyjson.Value {
	if v, ok := a.Payload.Get(key); ok {
		return v
	}
	return pyjson.IntValue(0)
}

// RoutingSnapshot is the structural fingerprint of the routing state that
// methodology entries and judgment nodes keep, so later consults can match
// the situation they were learned in.
func RoutingSnapshot(e *torusfield.Engine, cursor string, paths []pyjson.Value, context []torusfield.NodeEnergy, wormholes, attractors []pyjson.Value) pyjson.Value {
	top := []pyjson.Value{}
	for _, p := range paths[:min(5, len(paths))] {
		to, _ := p.Get("to")
		score, _ := p.Get("score")
		top = append(top, pyjson.Obj(pyjson.KV("to", to), pyjson.KV("score", score)))
	}
	energy := []pyjson.Member{}
	for _, ne := range context {
		if ne.Energy > 0.01 {
			energy = append(energy, pyjson.KV(ne.Node, pyjson.Round(ne.Energy, 4)))
		}
	}
	active := []pyjson.Value{}
	for _, list := range [][]pyjson.Value{wormholes[:min(3, len(wormholes))], attractors[:min(3, len(attractors))]} {
		for _, a := range list {
			id, _ := a.Get("id")
			active = append(active, id)
		}
	}
	return pyjson.Obj(
		pyjson.KV("cursor", cursor),
		pyjson.KV("top_paths", top),
		pyjson.KV("context_energy", energy),
		pyjson.KV("active_artifacts", active),
		pyjson.KV("t", e.Grid.T),
	)
}

// RoutingAt is the routing snapshot (RoutingSnapshot) at cursor, with no
// context: the best paths leaving it (ScorePaths) and, when artifacts is
// above 0, that many of the best wormholes and attractors (Enrich).
func RoutingAt(e *torusfield.Engine, anns map[string]pyjson.Value, cursor string, artifacts int) pyjson.Value {
	paths := ScorePaths(e, anns, cursor, nil, nil)
	var wormholes, attractors []pyjson.Value
	if artifacts > 0 {
		wormholes, attractors = Enrich(e, anns, torusfield.KindWormhole, artifacts), Enrich(e, anns, torusfield.KindAttractor, artifacts)
	}
	return RoutingSnapshot(e, cursor, paths[:min(5, len(paths))], nil, wormholes, attractors)
}

// EnergyMap is the context's energy by capability, as ScorePaths weighs
// it.
func EnergyMap(context []torusfield.NodeEnergy) map[string]float64 {
	m := make(map[string]float64, len(context))
	for _, ne := range context {
		m[ne.Node] = ne.Energy
	}
	return m
}

// Boosted is the energy the context put on capabilities, above 0.01,
// largest first (ties in manifest order), as consult's "context_boosted"
// shows it.
func Boosted(context []torusfield.NodeEnergy) pyjson.Value {
	sorted := slices.Clone(context)
	slices.SortStableFunc(sorted, func(a, b torusfield.NodeEnergy) int { return cmp.Compare(b.Energy, a.Energy) })
	ms := []pyjson.Member{}
	for _, ne := range sorted {
		if ne.Energy > 0.01 {
			ms = append(ms, pyjson.KV(ne.Node, pyjson.Round(ne.Energy, 4)))
		}
	}
	return pyjson.ObjectValue(ms)
}
