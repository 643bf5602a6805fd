package initmanifest

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// ReferenceWarmup is the number of θ-steps init runs on a workspace of the
// reference's model, so it starts with a formed landscape, as the
// reference does.
const ReferenceWarmup = 200

// A Plan is what an init decides before it creates the workspace: the
// manifest it pins and where it came from, the learning model and the
// workspace format it writes, whether it starts an existing workspace
// over (Force), and whether the new model starts from the fleet's
// (FleetPrior).
type Plan struct {
	Choice     Choice
	Manifest   *torusfield.Manifest
	Model      *advice.Model
	Format     int
	Force      bool
	FleetPrior bool
	// PriorFrom names the fleet's workspaces whose models the new one
	// starts from; the caller fills it in once it has read them.
	PriorFrom []string
}

// Decide is the plan of the init call r on ws, in format (0: the newest,
// workspace.Format). An initialized workspace is left alone unless
// r.Force: then it is workspace.ErrInitialized, once the manifest the call
// names, if any, is found to be the pinned one (Compare). The model is
// r.Model, else advice.DefaultModel; one no one knows is bad input. A
// forced init starts over on the pinned manifest unless the call names
// another (Pick).
func Decide(ws *workspace.Workspace, r Request, format int, replaying bool) (Plan, error) {
	if err := fault.BadRoot(ws.Root()); err != nil {
		return Plan{}, err
	}
	initialized := ws.Exists(workspace.RelState)
	if initialized && !r.Force {
		if err := Compare(ws, r, replaying); err != nil {
			return Plan{}, err
		}
		return Plan{}, workspace.ErrInitialized
	}
	if format == 0 {
		format = workspace.Format
	}
	name := r.Model
	if name == "" {
		name = advice.DefaultModel
	}
	model := advice.LookupModel(name)
	if model == nil {
		return Plan{}, fault.BadInput(fault.CodeInvalidValue, "use one of: "+strings.Join(advice.Models(), ", "), "there is no learning model %q", name)
	}
	ch, m, err := Pick(ws, r, initialized && r.Force, replaying)
	if err != nil {
		return Plan{}, err
	}
	return Plan{Choice: ch, Manifest: m, Model: model, Format: format, Force: r.Force, FleetPrior: r.FleetPrior}, nil
}

// Warmup is the θ-steps the new engine runs before the first call: the
// reference's model starts from a formed landscape (ReferenceWarmup);
// ucs's own (v3 and later) invent nothing before the agent's first real
// action.
func (p Plan) Warmup() int {
	if p.Model.UCSOwn() {
		return 0
	}
	return ReferenceWarmup
}

// Args are the args of init's journal event, everything that shapes the
// new state: force, the manifest by its SHA-256 (it is pinned beside the
// state; its path is not recorded), from format 2 on the model and the
// agent, and the fleet prior asked for.
func (p Plan) Args(agentID string) pyjson.Value {
	sum := sha256.Sum256(p.Choice.Raw)
	args := []pyjson.Member{pyjson.KV("force", p.Force), pyjson.KV("manifest_sha256", hex.EncodeToString(sum[:]))}
	if p.Format >= 2 {
		args = append(args, pyjson.KV("model", p.Model.Name), pyjson.KV("agent_id", agentID))
	}
	if p.FleetPrior {
		args = append(args, pyjson.KV("fleet_prior", true))
	}
	return pyjson.ObjectValue(args)
}

// Answer adds to init's answer out what the plan says of itself: with
// Force, the manifest the workspace starts over on; with FleetPrior, the
// transitions the new model starts with and where from. Its warning, for
// a model the fleet prior does not apply to, is "" when there is none.
func (p Plan) Answer(out pyjson.Value, transitions int) (pyjson.Value, string) {
	if p.Force {
		out = out.With("manifest", p.Choice.Answer())
	}
	if !p.FleetPrior {
		return out, ""
	}
	var warning string
	if p.Model.NextSteps() {
		warning = "fleet_prior: the fleet's learned transitions are pooled into a new model for v3 and v4 workspaces only; this v5 workspace starts with no evidence of its own and ranks with its fleet's at every consult instead"
	}
	return out.With("fleet_prior", pyjson.Obj(pyjson.KV("from", advice.OrEmpty(p.PriorFrom)), pyjson.KV("transitions", transitions))), warning
}

// AlreadyInitialized is init's answer when the workspace (root) exists
// and force is not given (Decide's workspace.ErrInitialized): nothing was
// changed.
func AlreadyInitialized(root string) pyjson.Value {
	return pyjson.Obj(
		pyjson.KV("status", "already_initialized"),
		pyjson.KV("workspace", root),
		pyjson.KV("message", "Workspace exists. Use --force to reinitialize."),
	)
}

// A KnowledgeFile is a Markdown knowledge file a new workspace starts
// with, and its header.
type KnowledgeFile struct{ Rel, Header string }

// KnowledgeFiles are the Markdown knowledge files init starts, each with
// its header; a forced init keeps those it finds with content.
var KnowledgeFiles = []KnowledgeFile{
	{workspace.RelMethodologyMD, "# Methodology\n\nAccumulated expertise from post-task reflections.\n"},
	{workspace.RelExperimentsMD, "# Experiment Log\n\nConfiguration experiments with hypothesis, measurement, verdict.\n"},
	{workspace.RelDeadEndsMD, "# Dead Ends\n\nConfirmed closed avenues with conditions for reopening.\n"},
}
