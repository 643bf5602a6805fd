package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/initmanifest"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/transfer"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var initSpec = Spec{
	Op:   contract.Init,
	open: openInit,
	run:  opInit,
}

// InitWarmup is the number of θ-steps init runs so a new workspace starts
// with a formed landscape, as the reference does.
const InitWarmup = 200

// initWarmup is the warm-up of a new workspace of model m: the
// reference's model starts from a formed landscape; ucs's own (v3 and
// later) invents nothing before the agent's first real action.
func initWarmup(m *advice.Model) int {
	if m.UCSOwn() {
		return 0
	}
	return InitWarmup
}

// Markdown headers of the knowledge files.
var knowledgeHeaders = []struct{ rel, text string }{
	{relMethodologyMD, "# Methodology\n\nAccumulated expertise from post-task reflections.\n"},
	{relExperimentsMD, "# Experiment Log\n\nConfiguration experiments with hypothesis, measurement, verdict.\n"},
	{relDeadEndsMD, "# Dead Ends\n\nConfirmed closed avenues with conditions for reopening.\n"},
}

// openInit begins the transaction that creates a workspace
// (workspace.Workspace.Create), with "force" (bool) over an existing one
// after moving its state to ucs/state/backup/, and loads the session of
// the new workspace: the manifest ("manifest", a path, else
// WS/manifest.json when present, else the embedded Aegis manifest), the
// learning model ("model") and the engine, warmed up by 200 θ-steps.
func openInit(b *Bridge, c Call, tm *timings) (*session, error) {
	if err := fault.BadRoot(b.ws.Root()); err != nil {
		return nil, err
	}
	force := argBool(c, "force")
	initialized := b.ws.Exists(relState)
	if initialized && !force {
		if err := initmanifest.Compare(b.ws, manifestRequest(c), b.replaying); err != nil {
			return nil, err
		}
		return nil, workspace.ErrInitialized
	}
	format := b.format
	if format == 0 {
		format = WorkspaceFormat
	}
	model := c.Args.StrOf("model")
	if model == "" {
		model = advice.DefaultModel
	}
	if advice.LookupModel(model) == nil {
		return nil, badInput(fault.CodeInvalidValue, "use one of: "+strings.Join(advice.Models(), ", "), "there is no learning model %q", model)
	}
	// A forced init starts the workspace over on the manifest it was
	// initialized with, unless the call names another.
	ch, m, err := initmanifest.Pick(b.ws, manifestRequest(c), initialized && force, b.replaying)
	if err != nil {
		return nil, err
	}
	raw := ch.Raw
	// The warm-up runs on the other core while this one makes the
	// directories, takes the lock and checks what is there.
	boot := torusfield.BootAsync(m, initWarmup(advice.LookupModel(model)))
	tx, err := b.ws.Create(force, b.now())
	if err != nil {
		return nil, err
	}
	tm.mark("lock")
	tx.NoIndex, tx.Mark = b.noIndex, tm.mark
	tx.Pin(raw, m)
	// For the embedded manifest this restores the warm-up's stored result
	// (torusfield.Boot) instead of running 200 θ-steps.
	e, stored := boot()
	tm.mark("boot")
	s := b.newSession(tx)
	s.manifest, s.model, s.engine, s.storedState = m, advice.LookupModel(model), e, stored
	s.meta.Format, s.meta.Model, s.meta.AgentID = format, model, b.opts.AgentID
	// The journal records everything that shapes the new state: the
	// manifest (pinned beside it), the model and the agent id.
	sum := sha256.Sum256(raw)
	args := []pyjson.Member{pyjson.KV("force", force), pyjson.KV("manifest_sha256", hex.EncodeToString(sum[:]))}
	if format >= 2 {
		args = append(args, pyjson.KV("model", model), pyjson.KV("agent_id", b.opts.AgentID))
	}
	input := pyjson.NullValue()
	if argBool(c, "fleet_prior") {
		args = append(args, pyjson.KV("fleet_prior", true))
		prior, from, err := b.fleetPrior(c, s.model)
		if err != nil {
			tx.Close()
			return nil, err
		}
		if prior != nil {
			s.learning.State, s.priorFrom, input = learn.NewState(prior), from, transfer.PriorInput(prior, from)
		}
	}
	s.journaled = &Call{Op: "init", Args: pyjson.ObjectValue(args), Input: input}
	s.manifestUsed = ch
	return s, nil
}

// fleetPrior is the model a new workspace of model m starts from with
// fleet_prior (transfer.FleetPrior), or, in a replay, the one the journal
// recorded. Nil when there is none (no peer, or a model that does not
// learn).
func (b *Bridge) fleetPrior(c Call, m *advice.Model) (*learn.Model, []string, error) {
	switch {
	case !m.Learns():
		return nil, nil, nil
	case b.replaying:
		return transfer.RecordedPrior(c.Input, *m.Params)
	}
	peers := make([]transfer.Peer, len(b.peers))
	for i, p := range b.peers {
		peers[i] = transfer.Peer{Name: p.name, WS: p.ws}
	}
	prior, from := transfer.FleetPrior(peers, *m.Params)
	return prior, from, nil
}

// opInit fills a new workspace (openInit): empty knowledge, one PP
// snapshot.
func opInit(s *session, c Call) (pyjson.Value, error) {
	e := s.engine
	if err := s.snapshotPP(); err != nil {
		return pyjson.Value{}, err
	}
	for _, h := range knowledgeHeaders {
		if size, _ := s.ws.Size(h.rel); size <= 0 {
			s.appendText(h.rel, h.text)
		}
	}
	out := pyjson.Obj(
		pyjson.KV("status", "initialized"),
		pyjson.KV("workspace", s.ws.Root()),
		pyjson.KV("graph", pyjson.Obj(pyjson.KV("nodes", len(e.Graph.Nodes)), pyjson.KV("edges", len(e.Graph.Edges)))),
		pyjson.KV("warmup_steps", initWarmup(s.model)),
		pyjson.KV("artifacts_after_warmup", e.Artifacts.Len()),
		pyjson.KV("pp_health", pyjson.Round(e.PP.Health(), 4)),
		pyjson.KV("pp", ppRounded(e.PP)),
	)
	if argBool(c, "force") {
		out = out.With("manifest", s.manifestUsed.Answer())
	}
	if argBool(c, "fleet_prior") && s.model.NextSteps() {
		s.warn("fleet_prior: the fleet's learned transitions are pooled for v3 and v4 workspaces only; this v5 workspace starts from nothing (init --model v4 --fleet-prior to start from the fleet)")
	}
	if argBool(c, "fleet_prior") {
		prior := pyjson.Obj(pyjson.KV("from", advice.OrEmpty(s.priorFrom)), pyjson.KV("transitions", 0))
		if s.learning.State != nil {
			prior = prior.With("transitions", len(s.learning.State.Model.Pairs()))
		}
		out = out.With("fleet_prior", prior)
	}
	return out, nil
}

// alreadyInitialized is init's answer when the workspace exists and
// --force is not given.
func (b *Bridge) alreadyInitialized() pyjson.Value {
	return pyjson.Obj(
		pyjson.KV("status", "already_initialized"),
		pyjson.KV("workspace", b.opts.Workspace),
		pyjson.KV("message", "Workspace exists. Use --force to reinitialize."),
	)
}

// ppRounded is the PP vector with every dimension rounded to 4 places.
func ppRounded(p torusfield.PP) pyjson.Value { return p.Rounded() }

// snapshotPP records the PP vector in the PP history.
func (s *session) snapshotPP() error {
	return s.add(relPPHistory, s.engine.PPSnapshot(pyjson.ISOTime(s.now)))
}

// manifestRequest is what an init call says of its manifest.
func manifestRequest(c Call) initmanifest.Request {
	m, ok := argJSON(c, "capability_manifest")
	return initmanifest.Request{Inline: m, HasInline: ok, Path: c.Args.StrOf("manifest")}
}
