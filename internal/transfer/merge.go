package transfer

import (
	"math"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// lists are the knowledge lists import merges: the package's key and the
// workspace's file.
var lists = []struct{ key, rel string }{
	{"methodology", workspace.RelMethodology}, {"dead_ends", workspace.RelDeadEnds}, {"judgment_nodes", workspace.RelJudgment},
}

// newEntries returns the entries of a package's list (x) whose id is
// not among the workspace's (existing), in order, each once; an entry
// without an id gets one (id).
func newEntries(existing []pyjson.Value, x pyjson.Value, id func(pyjson.Value) string) []pyjson.Value {
	ids := map[string]bool{}
	for _, e := range existing {
		ids[e.StrOf("id")] = true
	}
	var out []pyjson.Value
	for _, entry := range x.Items() {
		eid := entry.StrOf("id")
		if eid == "" {
			eid = id(entry)
			entry = entry.With("id", eid)
		}
		if ids[eid] {
			continue
		}
		ids[eid] = true
		out = append(out, entry)
	}
	return out
}

// newAnnotations returns the annotations file's entries for the
// package's annotated artifacts (arts) that the workspace has no
// annotation of (have, by artifact id), in the package's order.
func newAnnotations(arts pyjson.Value, have map[string]pyjson.Value) []pyjson.Value {
	var out []pyjson.Value
	seen := map[string]bool{}
	for _, m := range arts.Members() {
		ann, _ := m.Value.Get("annotation")
		if ann.Kind() != pyjson.Object || len(ann.Members()) == 0 {
			continue
		}
		if _, has := have[m.Key]; has || seen[m.Key] {
			continue
		}
		seen[m.Key] = true
		out = append(out, pyjson.Obj(pyjson.KV("artifact_id", m.Key), pyjson.KV("annotation", ann)))
	}
	return out
}

// blendEdges gives every edge of edges that the package's routing graph
// (g) also has the mean of the two weights, within ±2.5. It returns how
// many changed by more than 0.001, and how many of the package's edges
// name a capability has does not know.
func blendEdges(g pyjson.Value, edges []torusfield.Edge, has func(string) bool) (blended, dropped int, err error) {
	x, _ := g.Get("edges")
	incoming := map[[2]string]float64{}
	for i, x := range x.Items() {
		w, okW := x.GetOr("w", pyjson.NullValue()).Float()
		if x.Kind() != pyjson.Object || !okW || math.IsNaN(w) || math.IsInf(w, 0) {
			return 0, 0, fault.BadInput(fault.CodeWrongType, "each edge needs src, dst and a finite number w",
				"routing_graph.edges[%d] is not an edge with a numeric w", i)
		}
		src, dst := x.StrOf("src"), x.StrOf("dst")
		if !has(src) || !has(dst) {
			dropped++
		}
		incoming[[2]string{src, dst}] = w
	}
	for i := range edges {
		ed := &edges[i]
		w, ok := incoming[[2]string{ed.Src, ed.Dst}]
		if !ok {
			continue
		}
		old := ed.W
		ed.W = min(max((ed.W+w)/2.0, -2.5), 2.5)
		if math.Abs(ed.W-old) > 0.001 {
			blended++
		}
	}
	return blended, dropped, nil
}
