package bridge

import (
	"errors"
	"io/fs"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/policy"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// ucs exec runs a tool and reports what it observed (package toolexec
// runs the process). Before anything runs, PlanExec checks the call
// against the workspace as its last commit left it, without taking the
// lock (a busy workspace never stops a tool). After the tool, Observe
// reports the result through the pending queue, so the observation
// survives a busy workspace and a killed process.

// PlanExec checks an exec of a capability (with an optional goal) that
// starts the program prog against the workspace's last committed state,
// read without the lock, and decides it (policy.PlanExec). An unknown
// capability or goal is refused (exit 2), an uninitialized workspace too
// (exit 3). A state that cannot be read is judged by the policy of the
// previous commit, which a repair restores (the goal is then not
// checked); when that cannot be read either, the policy is unknown and
// every capability is refused (fail closed). This is the one decision of
// ucs exec and the MCP server's execute_action: both reach it through
// toolexec.Plan.
func (b *Bridge) PlanExec(action, goalID string, prog policy.Program) (policy.ExecPlan, error) {
	none := policy.ExecPlan{Program: prog}
	raw, err := b.ws.ReadFile(workspace.RelPinned)
	if errors.Is(err, fs.ErrNotExist) {
		return none, fault.NotInitialized(b.ws.Root())
	}
	if err != nil {
		return none, fault.Internal(err, "read the workspace's manifest")
	}
	man, err := torusfield.ParseManifest(raw)
	if err != nil {
		return none, corrupt(err, workspace.RelPinned)
	}
	if !man.Has(action) {
		return none, badInput(fault.CodeUnknownCapability, man.UnknownHint(action, b.ws.Path(workspace.RelPinned)),
			"%s is not a capability of the workspace's manifest", pyjson.Quote(action))
	}
	state, err := b.ws.ReadFile(workspace.RelState)
	readable := err == nil && gjson.ValidBytes(state)
	if !readable {
		// The policy a repair would restore: the previous commit's (a
		// workspace problem does not stop a tool the policy allowed).
		if state, err = b.ws.ReadFile(workspace.RelStatePrev); err != nil {
			state = nil
		}
	}
	pf, err := b.policyFileFor(Call{})
	if err != nil {
		return none, err
	}
	if readable && goalID != "" && !goal.Listed(state, goalID) {
		return none, goal.Unknown(goalID)
	}
	return policy.PlanExec(raw, action, prog, pf, state), nil
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
	d := b.applyPending(id)
	switch {
	case d.Err != nil:
		return pyjson.Value{}, false, d.Err
	case !d.Applied:
		var why string
		if len(d.Notes) > 0 {
			why = d.Notes[len(d.Notes)-1]
		}
		return pyjson.Obj(pyjson.KV("status", "queued"), pyjson.KV("why", why)), true, nil
	}
	return d.Answer, false, nil
}
