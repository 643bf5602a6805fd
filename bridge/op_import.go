package bridge

import (
	"math"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// opImport merges an export package into this workspace: entries whose id
// is new are appended (an entry without an id gets one), annotations fill
// in artifacts that have none, and every edge both graphs share takes the
// mean of the two weights.
func opImport(s *session, c Call) (pyjson.Value, error) {
	pkg := c.Input
	format := knowledge.Str(pkg, "format")
	if !strings.HasPrefix(format, "ucs_cognitive_export") {
		return pyjson.Value{}, badInput("invalid_value", "pipe the output of `ucs export` (format "+ExportFormat+")",
			"unknown export format %q", format)
	}
	f := fields{v: pkg}
	counts := map[string]int{}
	for _, k := range []struct{ key, rel string }{
		{"methodology", relMethodology}, {"dead_ends", relDeadEnds}, {"judgment_nodes", relJudgment}} {
		x, ok := pkg.Get(k.key)
		if !ok || x.IsNull() {
			continue
		}
		if x.Kind() != pyjson.Array {
			f.fail("wrong_type", "\""+k.key+"\" must be a list of objects", "field %q must be a list, got %s", k.key, x.Kind().Noun())
			break
		}
		existing, err := s.list(k.rel)
		if err != nil {
			return pyjson.Value{}, err
		}
		ids := map[string]bool{}
		for _, e := range existing {
			ids[knowledge.Str(e, "id")] = true
		}
		for i, entry := range x.Items() {
			if entry.Kind() != pyjson.Object {
				f.fail("wrong_type", "\""+k.key+"\" must be a list of objects", "%s[%d] must be an object", k.key, i)
				break
			}
			id := knowledge.Str(entry, "id")
			if id == "" {
				id = entryID(entry)
				entry = entry.With("id", id)
			}
			if ids[id] {
				continue
			}
			ids[id] = true
			if err := s.add(k.rel, entry); err != nil {
				return pyjson.Value{}, err
			}
			counts[k.key]++
		}
	}
	if arts, ok := f.object("artifacts"); ok {
		anns, err := s.annotations()
		if err != nil {
			return pyjson.Value{}, err
		}
		for _, m := range arts.Members() {
			ann, _ := m.Value.Get("annotation")
			if ann.Kind() != pyjson.Object || len(ann.Members()) == 0 {
				continue
			}
			if _, has := anns[m.Key]; has {
				continue
			}
			if err := s.add(relAnnotations, pyjson.Obj(pyjson.KV("artifact_id", m.Key), pyjson.KV("annotation", ann))); err != nil {
				return pyjson.Value{}, err
			}
			anns[m.Key] = ann
			counts["artifacts"]++
		}
	}
	if g, ok := f.object("routing_graph"); ok {
		edges, _ := g.Get("edges")
		incoming := map[[2]string]float64{}
		for i, x := range edges.Items() {
			w, okW := field(x, "w", pyjson.NullValue()).Float()
			if x.Kind() != pyjson.Object || !okW || math.IsNaN(w) || math.IsInf(w, 0) {
				f.fail("wrong_type", "each edge needs src, dst and a finite number w", "routing_graph.edges[%d] is not an edge with a numeric w", i)
				break
			}
			incoming[[2]string{knowledge.Str(x, "src"), knowledge.Str(x, "dst")}] = w
		}
		for i := range s.engine.Graph.Edges {
			ed := &s.engine.Graph.Edges[i]
			w, ok := incoming[[2]string{ed.Src, ed.Dst}]
			if !ok {
				continue
			}
			old := ed.W
			ed.W = min(max((ed.W+w)/2.0, -2.5), 2.5)
			if math.Abs(ed.W-old) > 0.001 {
				counts["edges_blended"]++
			}
		}
	}
	if f.err != nil {
		return pyjson.Value{}, f.err
	}
	agent := knowledge.Str(pkg, "agent_id")
	if _, ok := pkg.Get("agent_id"); !ok {
		agent = "unknown"
	}
	return pyjson.Obj(
		pyjson.KV("status", "imported"),
		pyjson.KV("source_agent", agent),
		pyjson.KV("source_format", format),
		pyjson.KV("imported", pyjson.Obj(
			pyjson.KV("methodology", counts["methodology"]),
			pyjson.KV("dead_ends", counts["dead_ends"]),
			pyjson.KV("judgment_nodes", counts["judgment_nodes"]),
			pyjson.KV("artifacts", counts["artifacts"]),
			pyjson.KV("edges_blended", counts["edges_blended"]),
		)),
	), nil
}
