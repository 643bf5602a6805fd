package bridge

import (
	"math"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

var importSpec = Spec{
	Output:   importOutput,
	Name:     "import",
	Operator: true,
	Summary:  "Merge a cognitive export package (from ucs export) into this workspace",
	Long: `New entries are appended (no duplicates by id), annotations fill unannotated
artifacts, and the edges both graphs share take the mean weight. The learned
model (v3 and later) is restored into a workspace of the same model and
manifest that has learned nothing, and pooled into one that has (v5: the
counts summed); a model member imported before changes nothing. Members
of the package that import does not read are left alone.`,
	Example:  "ucs --workspace old export > agent.json && ucs --workspace new import < agent.json",
	Mutating: true,
	Retries:  true,
	Open:     true,
	Fields: []field.Field{
		{Name: "format", Type: field.String, Required: true, Doc: "the package's format: " + ExportFormat + " (or an earlier ucs_cognitive_export)",
			Valid: checkExportFormat},
		{Name: "agent_id", Type: field.String, Doc: "the agent that exported it"},
		{Name: "methodology", Type: field.Objects, Text: true, Doc: "methodology entries"},
		{Name: "dead_ends", Type: field.Objects, Text: true, Doc: "dead ends"},
		{Name: "judgment_nodes", Type: field.Objects, Text: true, Doc: "judgment nodes"},
		{Name: "artifacts", Type: field.Object, Text: true, Max: field.MaxInput, Doc: "artifacts by id, each with its annotation"},
		{Name: "routing_graph", Type: field.Object, Max: field.MaxInput, Doc: "nodes and edges (src, dst, w)"},
		{Name: "observations", Type: field.Object, Text: true, Max: field.MaxInput, Doc: "v4 and later: what the exporting agent believed, with its evidence"},
		{Name: "goals", Type: field.Object, Max: field.MaxInput, Doc: "v4 and later: the exporting agent's goals (carried, not imported)"},
		{Name: "markdown", Type: field.Object, Text: true, Files: true, Max: field.MaxInput, Doc: "v4 and later: the knowledge files people read (methodology.md, dead-ends.md, experiments.md)"},
		{Name: "model", Type: field.Object, Max: field.MaxInput, Valid: checkModelMember,
			Doc: "v3 and later: the exporting agent's learned model: restored into a workspace of the same model and manifest that has learned nothing, pooled into one that has"},
		{Name: "dry_run", Type: field.Bool, Flag: true, Doc: "say what the import would do, and change nothing"},
	},
	run: opImport,
}

// opImport merges an export package into this workspace: entries whose id
// is new are appended (an entry without an id gets one), annotations fill
// in artifacts that have none, and every edge both graphs share takes the
// mean of the two weights.
func opImport(s *session, c Call) (pyjson.Value, error) {
	// importSpec has checked the format and the types of the members read
	// here, and of each entry of the lists.
	pkg := c.Input
	format := pkg.StrOf("format")
	var mp *modelPackage
	if x, ok := pkg.Get(modelMember); ok && !x.IsNull() {
		var err error
		if mp, err = readModel(x); err != nil {
			return pyjson.Value{}, err
		}
	}
	counts := map[string]int{}
	governs := s.model.governsKnowledge()
	again := governs && s.importedBefore(packageDigest(pkg))
	var missing []string
	if governs {
		if missing = s.manifestReport(pkg); len(missing) > 0 {
			s.warn("the package comes from another manifest: " + itoa(len(missing)) + " of its capabilities are not in this workspace's (" +
				strings.Join(missing[:min(5, len(missing))], ", ") + "); their edges are dropped")
		}
	}
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
			ids[e.StrOf("id")] = true
		}
		for _, entry := range x.Items() {
			id := entry.StrOf("id")
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
	if g, _ := pkg.Get("routing_graph"); g.Kind() == pyjson.Object && !again {
		edges, _ := g.Get("edges")
		incoming := map[[2]string]float64{}
		for i, x := range edges.Items() {
			w, okW := x.GetOr("w", pyjson.NullValue()).Float()
			if x.Kind() != pyjson.Object || !okW || math.IsNaN(w) || math.IsInf(w, 0) {
				return pyjson.Value{}, badInput(fault.CodeWrongType, "each edge needs src, dst and a finite number w",
					"routing_graph.edges[%d] is not an edge with a numeric w", i)
			}
			src, dst := x.StrOf("src"), x.StrOf("dst")
			if !s.manifest.Has(src) || !s.manifest.Has(dst) {
				counts["edges_dropped"]++
			}
			incoming[[2]string{src, dst}] = w
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
	if governs {
		s.importMarkdown(pkg, counts)
		if err := s.importObservations(pkg, counts); err != nil {
			return pyjson.Value{}, err
		}
	}
	agent := pkg.StrOf("agent_id")
	if _, ok := pkg.Get("agent_id"); !ok {
		agent = "unknown"
	}
	imported := pyjson.Obj(
		pyjson.KV("methodology", counts["methodology"]),
		pyjson.KV("dead_ends", counts["dead_ends"]),
		pyjson.KV("judgment_nodes", counts["judgment_nodes"]),
		pyjson.KV("artifacts", counts["artifacts"]),
		pyjson.KV("edges_blended", counts["edges_blended"]),
	)
	out := pyjson.Obj(
		pyjson.KV("status", "imported"),
		pyjson.KV("source_agent", agent),
		pyjson.KV("source_format", format),
		pyjson.KV("imported", imported),
	)
	if governs {
		out = out.With("imported", imported.With("observations", counts["observations"]).With("markdown_blocks", counts["markdown_blocks"]))
		if missing == nil {
			missing = []string{}
		}
		out = out.With("already_imported", again).With("not_imported", pyjson.Obj(
			pyjson.KV("capabilities_unknown_here", missing),
			pyjson.KV("edges_to_unknown_capabilities", counts["edges_dropped"]),
			pyjson.KV("observations_conflicting_with_a_belief_here", counts["observations_conflicting"]),
		))
	}
	if mp != nil {
		m, err := s.importModel(mp, again)
		if err != nil {
			return pyjson.Value{}, err
		}
		out = out.With(modelMember, m)
	}
	return out, nil
}

// importOutput is the answer of import.
var importOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "\"imported\""},
	{Name: "source_agent", Type: field.String, Always: true, Doc: "the agent the package came from"},
	{Name: "source_format", Type: field.String, Always: true, Doc: "the package's format"},
	{Name: "imported", Type: field.Object, Always: true, Doc: "how many entries of each kind were imported"},
	{Name: "already_imported", Type: field.Bool, Doc: "the package was imported before: nothing was added twice"},
	{Name: "not_imported", Type: field.Object, Doc: "what was left out, and why: unknown capabilities, conflicting observations"},
	{Name: "model", Type: field.Object, Doc: "a package with a learned model: its version and what import did with it (action: restored, mapped, pooled, already_imported or not_imported, with a reason and a hint), the records imported and those left out, and the capabilities it names that this workspace lacks"},
}
