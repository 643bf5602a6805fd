package bridge

import (
	"math"
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// ExportFormat names the portable package export writes and import reads.
const ExportFormat = "ucs_cognitive_export_v2"

// opExport packages the whole cognitive state, portable to another machine
// or agent: judgment nodes, methodology, dead ends, annotated artifacts,
// the learned routing graph, policy biases and PP history.
func opExport(s *session, _ Call) (pyjson.Value, error) {
	e := s.engine
	// Entries are only written out: the lists hold their text, decoded one
	// at a time as the package is printed (rawWindow).
	lists := map[string]pyjson.Value{}
	for _, w := range []struct {
		rel string
		n   int
	}{{relJudgment, judgmentWindow}, {relMethodology, math.MaxInt}, {relDeadEnds, math.MaxInt},
		{relPPHistory, 100}, {relOverrides, overridesWindow}} {
		v, err := s.rawWindow(w.rel, w.n)
		if err != nil {
			return pyjson.Value{}, err
		}
		lists[w.rel] = v
	}
	anns, err := s.annotations()
	if err != nil {
		return pyjson.Value{}, err
	}
	arts := []pyjson.Member{}
	for _, a := range e.Artifacts.All() {
		ann, ok := anns[a.ID]
		if !ok {
			ann = pyjson.NullValue()
		}
		arts = append(arts, pyjson.KV(a.ID, pyjson.Obj(
			pyjson.KV("kind", a.Kind), pyjson.KV("payload", a.Payload), pyjson.KV("score", round(a.Score, 4)),
			pyjson.KV("created_t", a.CreatedT), pyjson.KV("annotation", ann))))
	}
	edges := make([]pyjson.Value, len(e.Graph.Edges))
	for i, ed := range e.Graph.Edges {
		edges[i] = pyjson.Obj(pyjson.KV("src", ed.Src), pyjson.KV("dst", ed.Dst), pyjson.KV("w", round(ed.W, 6)),
			pyjson.KV("u", round(ed.U, 4)), pyjson.KV("c", round(ed.C, 4)), pyjson.KV("n", round(ed.N, 4)))
	}
	biases := []pyjson.Member{}
	e.Policy.Biases(func(ei int, b float64) { biases = append(biases, pyjson.KV(strconv.Itoa(ei), round(b, 6))) })
	return pyjson.Obj(
		pyjson.KV("format", ExportFormat),
		pyjson.KV("exported_at", isoTime(s.now)),
		pyjson.KV("agent_id", s.meta.AgentID),
		pyjson.KV("schema_version", "2.0"),
		pyjson.KV("judgment_nodes", lists[relJudgment]),
		pyjson.KV("methodology", lists[relMethodology]),
		pyjson.KV("dead_ends", lists[relDeadEnds]),
		pyjson.KV("artifacts", arts),
		pyjson.KV("routing_graph", pyjson.Obj(pyjson.KV("nodes", e.Graph.Nodes), pyjson.KV("edges", edges))),
		pyjson.KV("policy_biases", biases),
		pyjson.KV("pp_vector", ppRounded(e.PP)),
		pyjson.KV("pp_health", round(e.PP.Health(), 4)),
		pyjson.KV("pp_history", lists[relPPHistory]),
		pyjson.KV("policy_overrides", lists[relOverrides]),
		pyjson.KV("engine_t", e.Grid.T),
		pyjson.KV("cursor", e.Cursor.Node),
	), nil
}

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
