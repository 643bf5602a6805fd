package toolexec

import (
	"errors"
	"io/fs"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/policy"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// planExec checks an exec of a capability (with an optional goal) that
// starts the program prog against the last committed state of b's
// workspace, read without the lock, and decides it (policy.PlanExec). An
// unknown capability or goal is refused (exit 2), an uninitialized
// workspace too (exit 3). A state that cannot be read is judged by the
// policy of the previous commit, which a repair restores (the goal is
// then not checked); when that cannot be read either, the policy is
// unknown and every capability is refused (fail closed). This is the one
// decision of ucs exec and the MCP server's execute_action: both reach it
// through Plan.
func planExec(b *bridge.Bridge, action, goalID string, prog policy.Program) (policy.ExecPlan, error) {
	ws := b.Workspace()
	none := policy.ExecPlan{Program: prog}
	raw, err := ws.ReadFile(workspace.RelPinned)
	if errors.Is(err, fs.ErrNotExist) {
		return none, fault.NotInitialized(ws.Root())
	}
	if err != nil {
		return none, fault.Internal(err, "read the workspace's manifest")
	}
	man, err := torusfield.ParseManifest(raw)
	if err != nil {
		return none, fault.Corrupt(err, workspace.RelPinned)
	}
	if !man.Has(action) {
		return none, fault.BadInput(fault.CodeUnknownCapability, man.UnknownHint(action, ws.Path(workspace.RelPinned)),
			"%s is not a capability of the workspace's manifest", pyjson.Quote(action))
	}
	state, err := ws.ReadFile(workspace.RelState)
	readable := err == nil && gjson.ValidBytes(state)
	if !readable {
		// The policy a repair would restore: the previous commit's (a
		// workspace problem does not stop a tool the policy allowed).
		if state, err = ws.ReadFile(workspace.RelStatePrev); err != nil {
			state = nil
		}
	}
	pf, err := b.PolicyFile()
	if err != nil {
		return none, err
	}
	if readable && goalID != "" && !goal.Listed(state, goalID) {
		return none, goal.Unknown(goalID)
	}
	return policy.PlanExec(raw, action, prog, pf, state), nil
}
