package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/initmanifest"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/transfer"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var initSpec = Spec{
	Op:   contract.Init,
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
	return s.add(workspace.RelPPHistory, s.engine.PPSnapshot(pyjson.ISOTime(s.now)))
}
