package bridge

import (
	"math"
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// ExportFormat names the portable package export writes and import reads.
const ExportFormat = "ucs_cognitive_export_v2"

var exportSpec = Spec{
	Output:  exportOutput,
	Name:    "export",
	Summary: "Print the whole cognitive state as one portable JSON package",
	Long: `The package holds the judgment nodes, methodology, dead ends, annotated
artifacts, the learned routing graph, policy biases and PP history, and
the learned model of ucs's own models (v3 and later); import merges it
into another workspace.`,
	Example: "ucs export > agent.json",
	run:     opExport,
}

// checkExportFormat accepts a package of any version of the export format.
func checkExportFormat(x pyjson.Value, _ bool) error {
	if format := x.Str(); !strings.HasPrefix(format, "ucs_cognitive_export") {
		return badInput(fault.CodeInvalidValue, "pipe the output of `ucs export` (format "+ExportFormat+")",
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
	pkg := pyjson.Obj(
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
	)
	if s.model.governsKnowledge() {
		var err error
		if pkg, err = s.exportGoverned(pkg); err != nil {
			return pyjson.Value{}, err
		}
	}
	if m, ok, err := s.exportModel(); err != nil {
		return pyjson.Value{}, err
	} else if ok {
		pkg = pkg.With(modelMember, m)
	}
	return pkg, nil
}

// exportOutput is the answer of export.
var exportOutput = []field.Output{
	{Name: "format", Type: field.String, Always: true, Doc: "the package's format (import reads it)"},
	{Name: "exported_at", Type: field.String, Always: true, Doc: "when it was exported (RFC 3339)"},
	{Name: "agent_id", Type: field.String, Always: true, Doc: "the workspace's agent"},
	{Name: "schema_version", Type: field.String, Always: true, Doc: "the version of the package's schema"},
	{Name: "judgment_nodes", Type: field.Objects, Always: true, Doc: "the judgment nodes"},
	{Name: "methodology", Type: field.Objects, Always: true, Doc: "the methodology entries"},
	{Name: "dead_ends", Type: field.Objects, Always: true, Doc: "the dead ends"},
	{Name: "artifacts", Type: field.Object, Always: true, Doc: "the artifacts by id, with their annotations"},
	{Name: "routing_graph", Type: field.Object, Always: true, Doc: "the routing graph: nodes and weighted edges"},
	{Name: "policy_biases", Type: field.Object, Always: true, Doc: "the learnt biases of the routing policy"},
	{Name: "pp_vector", Type: field.Object, Always: true, Doc: "the PP vector's components"},
	{Name: "pp_health", Type: field.Number, Always: true, Doc: "the health of the engine's PP vector, 0 to 1"},
	{Name: "pp_history", Type: field.Objects, Always: true, Doc: "the PP snapshots"},
	{Name: "policy_overrides", Type: field.Objects, Always: true, Doc: "the jumps logged as policy overrides"},
	{Name: "engine_t", Type: field.Int, Always: true, Doc: "the engine's step"},
	{Name: "cursor", Type: field.String, Always: true, Doc: "the capability the agent is at"},
	{Name: "observations", Type: field.Object, Doc: "a model that governs knowledge (v4 and later): its observations"},
	{Name: "markdown", Type: field.Object, Doc: "a model that governs knowledge (v4 and later): the knowledge files, by name"},
	{Name: "model", Type: field.Object, Doc: "ucs's own models (v3 and later): the learned model: version, manifest (a digest), capabilities, state, and for v5 records (the record log's evidence by key)"},
}
