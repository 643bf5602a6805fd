package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

var Init = Op{
	Output:      InitOutput,
	Name:        "init",
	Destructive: true,
	Operator:    true,
	Summary:     "Create a workspace and boot the engine (200 warm-up steps)",
	Long: `Boots the engine from a capability manifest: --manifest PATH (or the
manifest itself, --capability-manifest JSON: the MCP tool's only way), else
WORKSPACE/manifest.json when present, else the embedded Aegis manifest (45
capabilities, 249 edges), and pins the manifest in the workspace. A key no
reader knows is refused (docs/manifest.md). An existing workspace is left
alone unless --force, which first moves its state to ucs/state/backup/ and
starts over on the pinned manifest unless the call names another; naming
a manifest other than the pinned one without --force is an error.`,
	Peers:    true, // it starts from the fleet's knowledge
	Example:  "ucs --workspace ~/.ucs init\nucs init --manifest my-agent.json",
	Mutating: true,
	Fields: []field.Field{
		{Name: "force", Type: field.Bool, Flag: true, Doc: "reinitialize an existing workspace (its state is backed up first), on its pinned manifest unless one is named"},
		{Name: "manifest", Type: field.String, Flag: true, Path: true, Doc: "capability manifest JSON file"},
		{Name: "capability_manifest", Type: field.String, JSON: true, Flag: true, Doc: "the capability manifest itself: {\"capabilities\": [...], \"semantic_map\": {...}}"},
		{Name: "model", Type: field.String, Flag: true, Env: "UCS_MODEL",
			Doc: "the learning model: v5 (the next-step model), v4 and v3 (ucs's earlier own, frozen) or v2 (the reference's, bit for bit); default " + advice.DefaultModel},
		{Name: "fleet_prior", Type: field.Bool, Flag: true,
			Doc: "v3, v4 in a PostgreSQL store: start from the fleet's learned transitions (its other workspaces' models, averaged, counted half)"},
	},
}

// InitOutput is the answer of init.
var InitOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "initialized, or already_initialized (nothing was changed: give force to reinitialize)"},
	{Name: "workspace", Type: field.String, Always: true, Doc: "the workspace directory"},
	{Name: "message", Type: field.String, Doc: "what to do when the workspace already exists"},
	{Name: "graph", Type: field.Object, Doc: "the routing graph of the manifest: its nodes and edges counted"},
	{Name: "warmup_steps", Type: field.Int, Doc: "the steps the engine ran to settle before the first call"},
	{Name: "artifacts_after_warmup", Type: field.Int, Doc: "the artifacts (wormholes, attractors, resonances) the warm-up left"},
	{Name: "pp_health", Type: field.Number, Doc: "the health of the engine's PP vector, 0 to 1"},
	{Name: "pp", Type: field.Object, Doc: "the PP vector's components"},
	{Name: "fleet_prior", Type: field.Object, Doc: "with fleet_prior: the transitions learnt from the other workspaces, and where from"},
	{Name: "manifest", Type: field.Object, Doc: "with force: the manifest the workspace starts over on (source: pinned, the one it was initialized with; file, --manifest; inline; workspace, WORKSPACE/manifest.json; embedded, Aegis) and the file it was read from"},
}
