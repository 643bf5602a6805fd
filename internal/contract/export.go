package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/transfer"
)

var Export = Op{
	Output:  ExportOutput,
	Name:    "export",
	Summary: "Print the whole cognitive state as one portable JSON package",
	Long: `The package holds the judgment nodes, methodology, dead ends, annotated
artifacts, the learned routing graph, policy biases and PP history, and
the learned model of ucs's own models (v3 and later); import merges it
into another workspace.`,
	Example: "ucs export > agent.json",
}

// ExportOutput is the answer of export.
var ExportOutput = []field.Output{
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

// checkExportFormat accepts a package of any version of the export format.
func checkExportFormat(x pyjson.Value, _ bool) error { return transfer.CheckFormat(x) }
