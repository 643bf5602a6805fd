package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/initmanifest"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/transfer"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var initSpec = Spec{
	Output:      initOutput,
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
	open: openInit,
	run:  opInit,
}

// openInit begins the transaction that creates a workspace
// (workspace.Workspace.Create), with "force" (bool) over an existing one
// after moving its state to ucs/state/backup/, and loads the session of
// the new workspace as init decided it (initmanifest.Decide): the
// manifest, the learning model and the engine, warmed up, and with
// "fleet_prior" the model the fleet's workspaces learned (transfer.Prior).
func openInit(b *Bridge, c Call, tm *timings) (*session, error) {
	m, ok := argJSON(c, "capability_manifest")
	r := initmanifest.Request{Inline: m, HasInline: ok, Path: c.Args.StrOf("manifest"),
		Model: c.Args.StrOf("model"), Force: argBool(c, "force"), FleetPrior: argBool(c, "fleet_prior")}
	p, err := initmanifest.Decide(b.ws, r, b.format, b.replaying)
	if err != nil {
		return nil, err
	}
	// The warm-up runs on the other core while this one makes the
	// directories, takes the lock and checks what is there.
	boot := torusfield.BootAsync(p.Manifest, p.Warmup())
	tx, err := b.ws.Create(p.Force, b.now())
	if err != nil {
		return nil, err
	}
	tm.mark("lock")
	tx.NoIndex, tx.Mark = b.noIndex, tm.mark
	tx.Pin(p.Choice.Raw, p.Manifest)
	// For the embedded manifest this restores the warm-up's stored result
	// (torusfield.Boot) instead of running 200 θ-steps.
	e, stored := boot()
	tm.mark("boot")
	s := b.newSession(tx)
	s.manifest, s.model, s.engine, s.storedState, s.init = p.Manifest, p.Model, e, stored, &p
	s.meta.Format, s.meta.Model, s.meta.AgentID = p.Format, p.Model.Name, b.opts.AgentID
	// The journal records everything that shapes the new state
	// (initmanifest.Plan.Args), and the prior the peers gave.
	input := pyjson.NullValue()
	if p.FleetPrior {
		peers := make([]transfer.Peer, len(b.peers))
		for i, pr := range b.peers {
			peers[i] = transfer.Peer{Name: pr.name, WS: pr.ws}
		}
		prior, from, err := transfer.Prior(p.Model, b.replaying, c.Input, peers)
		if err != nil {
			tx.Close()
			return nil, err
		}
		if prior != nil {
			s.learning.State, p.PriorFrom, input = learn.NewState(prior), from, transfer.PriorInput(prior, from)
		}
	}
	s.journaled = &Call{Op: "init", Args: p.Args(b.opts.AgentID), Input: input}
	return s, nil
}

// opInit fills a new workspace (openInit): empty knowledge, one PP
// snapshot.
func opInit(s *session, _ Call) (pyjson.Value, error) {
	e := s.engine
	if err := s.snapshotPP(); err != nil {
		return pyjson.Value{}, err
	}
	for _, f := range initmanifest.KnowledgeFiles {
		if size, _ := s.ws.Size(f.Rel); size <= 0 {
			s.appendText(f.Rel, f.Header)
		}
	}
	out := pyjson.Obj(
		pyjson.KV("status", "initialized"),
		pyjson.KV("workspace", s.ws.Root()),
		pyjson.KV("graph", pyjson.Obj(pyjson.KV("nodes", len(e.Graph.Nodes)), pyjson.KV("edges", len(e.Graph.Edges)))),
		pyjson.KV("warmup_steps", s.init.Warmup()),
		pyjson.KV("artifacts_after_warmup", e.Artifacts.Len()),
		pyjson.KV("pp_health", pyjson.Round(e.PP.Health(), 4)),
		pyjson.KV("pp", e.PP.Rounded()),
	)
	transitions := 0
	if s.learning.State != nil {
		transitions = len(s.learning.State.Model.Pairs())
	}
	out, warning := s.init.Answer(out, transitions)
	if warning != "" {
		s.warn(warning)
	}
	return out, nil
}

// snapshotPP records the PP vector in the PP history.
func (s *session) snapshotPP() error {
	return s.add(relPPHistory, s.engine.PPSnapshot(pyjson.ISOTime(s.now)))
}

// initOutput is the answer of init.
var initOutput = []field.Output{
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
