package bridge

import (
	"errors"
	"io/fs"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/outcome"
	"github.com/unified-cognitive-substrate/ucs/policy"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// ucs exec runs a tool and reports what it observed (package cli runs the
// process). Before anything runs, PlanExec checks the call against the
// workspace as its last commit left it, without taking the lock (a busy
// workspace never stops a tool): the capability exists, the goal exists,
// and the policy grants what the capability declares. After the tool,
// Observe reports the result through the pending queue, so the
// observation survives a busy workspace and a killed process.

// An ExecPlan is what exec needs before it runs a tool.
type ExecPlan struct {
	Declaration policy.Declaration // what the manifest declares of the capability
	Decision    policy.Decision    // whether the policy lets it run
	Rules       outcome.Rules      // the classifier's rules for it
}

// PlanExec checks an exec of a capability (with an optional goal) against
// the workspace's last committed state, read without the lock. An unknown
// capability or goal is refused (exit 2), an uninitialized workspace too
// (exit 3). A state that cannot be read leaves the policy unknown: a
// capability that declares permissions is then refused (fail closed), one
// that declares none runs.
func (b *Bridge) PlanExec(action, goalID string) (ExecPlan, error) {
	var plan ExecPlan
	raw, err := b.ws.ReadFile(workspace.RelPinned)
	if errors.Is(err, fs.ErrNotExist) {
		return plan, fault.NotInitialized(b.ws.Root())
	}
	if err != nil {
		return plan, fault.Internal(err, "read the workspace's manifest")
	}
	man, err := torusfield.ParseManifest(raw)
	if err != nil {
		return plan, corrupt(err, workspace.RelPinned)
	}
	if !man.Has(action) {
		return plan, badInput("unknown_capability", "use a capability of the workspace's manifest: "+closestNames(man, action),
			"%s is not a capability of the workspace's manifest", quote(action))
	}
	decls, err := policy.ParseDeclarations(raw)
	if err != nil {
		decls = map[string]policy.Declaration{}
	}
	plan.Declaration = decls[action]
	d := plan.Declaration
	plan.Rules = outcome.Rules{PartialExitCodes: d.PartialExitCodes, HTTPStatusPattern: d.HTTPStatusPattern,
		ExpectsOutput: d.ExpectsOutput, PartialPattern: d.PartialPattern}
	state, err := b.ws.ReadFile(workspace.RelState)
	var p *policy.Policy
	switch {
	case err != nil || !gjson.ValidBytes(state):
		p = policy.Unreadable(errors.New("the workspace's state cannot be read"))
	default:
		if m := gjson.GetBytes(state, policyMember); m.Exists() {
			p = policy.FromFile([]byte(m.Raw), nil)
		}
		if goalID != "" {
			found := false
			for _, part := range []string{"open", "closed"} {
				for _, g := range gjson.GetBytes(state, goalsMember+"."+part).Array() {
					found = found || g.Get("id").Str == goalID
				}
			}
			if !found {
				return plan, unknownGoal(goalID)
			}
		}
	}
	plan.Decision = p.Check(d.Permissions)
	return plan, nil
}

// closestNames names the capabilities nearest a misspelt one.
func closestNames(man *torusfield.Manifest, name string) string {
	near := closest(name, man.Names(), 3)
	out := ""
	for i, n := range near {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// Observe reports an observation (a report call with a request_id):
// queued first, durably, then applied with whatever else is queued. It
// returns the call's answer, or queued true when the workspace could not
// take it now (it stays queued for the next call that commits).
func (b *Bridge) Observe(c Call) (out pyjson.Value, queued bool, err error) {
	id, err := requestID(c.Input)
	if err != nil || id == "" {
		return pyjson.Value{}, false, fault.Internal(errors.New("an observation needs a request_id"), "observe")
	}
	if err := b.QueueCall(c); err != nil {
		// The queue cannot be written: try the call itself.
		out, err := b.Do(c)
		return out, false, err
	}
	b.capture, b.didCapture = id, false
	defer func() { b.capture, b.captured, b.didCapture = "", pyjson.Value{}, false }()
	notes := b.applyPending()
	if !b.didCapture {
		var why string
		if len(notes) > 0 {
			why = notes[len(notes)-1]
		}
		return pyjson.Obj(pyjson.KV("status", "queued"), pyjson.KV("why", why)), true, nil
	}
	return b.captured, false, nil
}
