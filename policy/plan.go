package policy

import (
	"errors"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/quickjson"
)

// StateMember is the workspace state file's member that holds its policy
// (State); the engine already has one named "policy".
const StateMember = "permissions"

// An ExecPlan is what an exec needs before it runs a tool.
type ExecPlan struct {
	// Declaration is what the manifest declares of the capability; its
	// Rules are the classifier's rules for the run.
	Declaration Declaration
	Program     Program  // the program the run starts, as the caller resolved it
	Decision    Decision // whether the policy lets it run the program
	// PolicyFile is the operator's policy file that decided, as a journal
	// event records it (File.Record); null when none is in force. A
	// refusal's policy block carries it.
	PolicyFile pyjson.Value
}

// PlanExec decides an exec of a capability of the manifest (its bytes)
// that starts the program prog: by the operator's policy file f when one
// is in force, else by the policy member of state, the workspace's state
// file as its last commit left it. A state that is nil or not JSON (it
// cannot be read) refuses every capability (fail closed); one without the
// member has no policy. The caller has checked that the capability is the
// manifest's.
func PlanExec(manifest []byte, capability string, prog Program, f *File, state []byte) ExecPlan {
	decls, err := ParseDeclarations(manifest)
	if err != nil {
		decls = map[string]Declaration{}
	}
	plan := ExecPlan{Declaration: decls[capability], Program: prog}
	var p *Policy
	switch {
	case f != nil:
		p, plan.PolicyFile = f.Policy, f.Record()
	case !gjson.ValidBytes(state):
		p = Unreadable(errors.New("the workspace's state cannot be read"))
	default:
		if m := quickjson.Member(gjson.ParseBytes(state), StateMember); m.Exists() {
			p = FromFile([]byte(m.Raw), nil)
		}
	}
	plan.Decision = p.CheckExec(plan.Declaration.Permissions, prog)
	return plan
}
