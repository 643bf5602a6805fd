package bridge

import (
	"errors"

	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// ucs exec runs a tool and reports what it observed (package toolexec
// runs the process and, before anything runs, checks the call against the
// workspace as its last commit left it, without taking the lock: a busy
// workspace never stops a tool). After the tool, Observe reports the
// result through the pending queue, so the observation survives a busy
// workspace and a killed process.

// Workspace is the workspace the Bridge runs its operations on, for what
// reads it without the lock (toolexec.Plan).
func (b *Bridge) Workspace() *workspace.Workspace { return b.ws }

// PolicyFile loads the operator's policy file in force
// (Options.PolicyFile): nil when there is none.
func (b *Bridge) PolicyFile() (*policy.File, error) { return b.policyFileFor(Call{}) }

// Observe reports an observation (a report call with a request_id):
// queued first, durably, then applied with whatever else is queued. It
// returns the call's answer, or queued true when the workspace could not
// take it now (it stays queued for the next call that commits), or the
// error for which the workspace refused it (it is not queued: never a
// queued answer for a call that will not apply).
func (b *Bridge) Observe(c Call) (out pyjson.Value, queued bool, err error) {
	id, err := contract.RequestID(c.Input)
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
