package bridge

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"

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
// and the policy lets the capability run the program (policy.CheckExec).
// After the tool,
// Observe reports the result through the pending queue, so the
// observation survives a busy workspace and a killed process.

// An ExecPlan is what exec needs before it runs a tool.
type ExecPlan struct {
	Declaration policy.Declaration // what the manifest declares of the capability
	Program     policy.Program     // the program the run starts, as the caller resolved it
	Decision    policy.Decision    // whether the policy lets it run the program
	// PolicyFile is the operator's policy file that decided, as a journal
	// event records it (path and grants); null when none is in force. A
	// refusal's policy block carries it.
	PolicyFile pyjson.Value
	// Rules are the classifier's rules for it.
	Rules outcome.Rules
}

// PlanExec checks an exec of a capability (with an optional goal) that
// starts the program prog against the workspace's last committed state,
// read without the lock. An unknown capability or goal is refused (exit
// 2), an uninitialized workspace too (exit 3). A state that cannot be
// read is judged by the policy of the previous commit, which a repair
// restores (the goal is then not checked); when that cannot be read
// either, the policy is unknown and every capability is refused (fail
// closed). This is the one decision of ucs exec and the MCP server's
// execute_action: both reach it through toolexec.Plan.
func (b *Bridge) PlanExec(action, goalID string, prog policy.Program) (ExecPlan, error) {
	plan := ExecPlan{Program: prog}
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
		return plan, badInput(fault.CodeUnknownCapability, capabilityHint(man.Names(), action, b.ws.Path(workspace.RelPinned)),
			"%s is not a capability of the workspace's manifest", quote(action))
	}
	decls, err := policy.ParseDeclarations(raw)
	if err != nil {
		decls = map[string]policy.Declaration{}
	}
	plan.Declaration = decls[action]
	d := plan.Declaration
	plan.Rules = d.Rules
	state, err := b.ws.ReadFile(workspace.RelState)
	readable := err == nil && gjson.ValidBytes(state)
	policyFrom := state
	if !readable {
		// The policy a repair would restore: the previous commit's (a
		// workspace problem does not stop a tool the policy allowed).
		policyFrom, err = b.ws.ReadFile(workspace.RelStatePrev)
	}
	var p *policy.Policy
	pf, ferr := b.policyFileFor(Call{})
	if ferr != nil {
		return plan, ferr
	}
	if pf != nil {
		p, plan.PolicyFile = pf.p, pf.record()
	} else if err != nil || !gjson.ValidBytes(policyFrom) {
		p = policy.Unreadable(errors.New("the workspace's state cannot be read"))
	} else if m := gjson.GetBytes(policyFrom, policyMember); m.Exists() {
		p = policy.FromFile([]byte(m.Raw), nil)
	}
	if readable {
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
	plan.Decision = p.CheckExec(d.Permissions, prog)
	return plan, nil
}

// capabilityHint is the hint for an unknown capability: the names
// nearest it (a did-you-mean when one is within a typo's distance), and
// how many capabilities there are and where they are listed (pinned, the
// workspace's manifest file): a few names alone read as the whole list.
func capabilityHint(names []string, name, pinned string) string {
	return capabilityNear(names, name) + "; all are listed in " + pinned + " (capabilities[].name)"
}

// capabilityNear says which of the manifest's names an unknown one was
// probably meant to be, and how many there are, so three close names do
// not read as the whole list.
func capabilityNear(names []string, name string) string {
	near := closest(name, names, 3)
	hint := ""
	if len(near) > 0 && editDistance(name, near[0]) <= max(2, len([]rune(name))/3) {
		hint = "did you mean " + quote(near[0]) + "? "
	}
	hint += "the workspace's manifest has " + strconv.Itoa(len(names)) + " capabilities"
	if len(near) > 0 {
		hint += "; the closest: " + strings.Join(near, ", ")
	}
	return hint
}

// Observe reports an observation (a report call with a request_id):
// queued first, durably, then applied with whatever else is queued. It
// returns the call's answer, or queued true when the workspace could not
// take it now (it stays queued for the next call that commits), or the
// error for which the workspace refused it (it is not queued: never a
// queued answer for a call that will not apply).
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
	b.capture, b.didCapture, b.captureErr = id, false, nil
	defer func() { b.capture, b.captured, b.didCapture, b.captureErr = "", pyjson.Value{}, false, nil }()
	notes := b.applyPending()
	if b.captureErr != nil {
		return pyjson.Value{}, false, b.captureErr
	}
	if !b.didCapture {
		var why string
		if len(notes) > 0 {
			why = notes[len(notes)-1]
		}
		return pyjson.Obj(pyjson.KV("status", "queued"), pyjson.KV("why", why)), true, nil
	}
	return b.captured, false, nil
}
