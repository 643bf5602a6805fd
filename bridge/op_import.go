package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/transfer"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
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
		{Name: "format", Type: field.String, Required: true, Doc: "the package's format: " + transfer.Format + " (or an earlier ucs_cognitive_export)",
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

// importsMember is the state's member that remembers the digests of the
// packages imported (transfer.Remember).
const importsMember = "imports"

// opImport merges an export package into this workspace: its knowledge
// (transfer.Merge), then its learned model (transfer.Model.Import).
func opImport(s *session, c Call) (pyjson.Value, error) {
	// importSpec has checked the format and the types of the members read
	// here, and of each entry of the lists.
	pkg := c.Input
	var mp *transfer.Model
	if x, ok := pkg.Get(transfer.ModelMember); ok && !x.IsNull() {
		var err error
		if mp, err = transfer.ReadModel(x, modelKinds); err != nil {
			return pyjson.Value{}, err
		}
	}
	// A package of a model that governs knowledge is remembered, so that
	// its knowledge is not imported twice (transfer.Remember).
	governs, again := s.model.GovernsKnowledge(), false
	if governs {
		s.state.imports.raw, again = transfer.Remember(s.state.imports.raw, transfer.Digest(pkg))
	}
	out, err := transfer.Merge(pkg, transfer.Target{Governs: governs, Again: again, Has: s.manifest.Has, Edges: s.engine.Graph.Edges,
		List: s.list, Add: s.add, Annotations: s.annotations, EntryID: knowledge.EntryID,
		ReadFile: s.ws.ReadFile, AppendText: s.appendText, Book: s.book, Warn: s.warn})
	if err != nil || mp == nil {
		return out, err
	}
	m, err := mp.Import(transfer.ModelTarget{Again: again, Model: s.meta.Model, Kinds: modelKinds, Manifest: s.manifest,
		Imports: &s.state.imports.raw, Learned: s.learned, Fresh: func() *learn.State { return advice.NewLearnState(s.model) },
		Restore: func(v *learn.State) { s.learning.State = v }, Steps: s.steps, Params: s.model.Steps, Tx: s.tx,
		SetRecords: s.setRecords, Warn: s.warn})
	if err != nil {
		return pyjson.Value{}, err
	}
	return out.With(transfer.ModelMember, m), nil
}

// modelKinds says how transfer reads a model member of each version.
func modelKinds(version string) (*learn.Params, bool) {
	m := advice.LookupModel(version)
	if m == nil {
		return nil, false
	}
	return m.Params, m.NextSteps()
}

// checkModelMember is the import field's check: the member reads.
func checkModelMember(x pyjson.Value, present bool) error {
	if !present {
		return nil
	}
	_, err := transfer.ReadModel(x, modelKinds)
	return err
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
