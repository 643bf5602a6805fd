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

var exportSpec = Spec{
	Name:    "export",
	Summary: "Print the whole cognitive state as one portable JSON package",
	Long: `The package holds the judgment nodes, methodology, dead ends, annotated
artifacts, the learned routing graph, policy biases and PP history; import
merges it into another workspace.`,
	Example: "ucs export > agent.json",
	run:     opExport,
}

var importSpec = Spec{
	Name:    "import",
	Summary: "Merge a cognitive export package (from ucs export) into this workspace",
	Long: `New entries are appended (no duplicates by id), annotations fill unannotated
artifacts, and the edges both graphs share take the mean weight. Members of
the package that import does not read are left alone.`,
	Example:  "ucs --workspace old export > agent.json && ucs --workspace new import < agent.json",
	Mutating: true,
	Retries:  true,
	Open:     true,
	Fields: []Field{
		{Name: "format", Type: TypeString, Required: true, Doc: "the package's format: " + ExportFormat + " (or an earlier ucs_cognitive_export)",
			valid: checkExportFormat},
		{Name: "agent_id", Type: TypeString, Doc: "the agent that exported it"},
		{Name: "methodology", Type: TypeObjects, Doc: "methodology entries"},
		{Name: "dead_ends", Type: TypeObjects, Doc: "dead ends"},
		{Name: "judgment_nodes", Type: TypeObjects, Doc: "judgment nodes"},
		{Name: "artifacts", Type: TypeObject, Doc: "artifacts by id, each with its annotation"},
		{Name: "routing_graph", Type: TypeObject, Doc: "nodes and edges (src, dst, w)"},
	},
	run: opImport,
}

// checkExportFormat accepts a package of any version of the export format.
func checkExportFormat(x pyjson.Value, _ bool) error {
	if format := x.Str(); !strings.HasPrefix(format, "ucs_cognitive_export") {
		return badInput("invalid_value", "pipe the output of `ucs export` (format "+ExportFormat+")",
			"unknown export format %q", format)
	}
	return nil
}

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
	// importSpec has checked the format and the types of the members read
	// here, and of each entry of the lists.
	pkg := c.Input
	format := knowledge.Str(pkg, "format")
	counts := map[string]int{}
	for _, k := range []struct{ key, rel string }{
		{"methodology", relMethodology}, {"dead_ends", relDeadEnds}, {"judgment_nodes", relJudgment}} {
		x, _ := pkg.Get(k.key)
		if x.Kind() != pyjson.Array {
			continue
		}
		existing, err := s.list(k.rel)
		if err != nil {
			return pyjson.Value{}, err
		}
		ids := map[string]bool{}
		for _, e := range existing {
			ids[knowledge.Str(e, "id")] = true
		}
		for _, entry := range x.Items() {
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
	if arts, _ := pkg.Get("artifacts"); arts.Kind() == pyjson.Object {
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
	if g, _ := pkg.Get("routing_graph"); g.Kind() == pyjson.Object {
		edges, _ := g.Get("edges")
		incoming := map[[2]string]float64{}
		for i, x := range edges.Items() {
			w, okW := field(x, "w", pyjson.NullValue()).Float()
			if x.Kind() != pyjson.Object || !okW || math.IsNaN(w) || math.IsInf(w, 0) {
				return pyjson.Value{}, badInput("wrong_type", "each edge needs src, dst and a finite number w",
					"routing_graph.edges[%d] is not an edge with a numeric w", i)
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
