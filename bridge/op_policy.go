package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// The policy operations: show, grant, revoke, set, clear, and block, the
// journaled record of a capability exec refused. Every change is a
// journaled event; show only reads.

var policyShowSpec = Spec{
	Op:  contract.PolicyShow,
	run: opPolicyShow,
}

func opPolicyShow(s *session, _ Call) (pyjson.Value, error) {
	caps, grants, domains := policy.Show(s.decisions.Gate(s.policy, s.manifest.Bytes()), s.gated())
	return pyjson.Obj(pyjson.KV("policy", s.decisions.Status(s.policy)), pyjson.KV("grants", grants),
		pyjson.KV("capabilities", caps), pyjson.KV("refused_by_default", s.refusedByDefault()), pyjson.KV("domains", domains)), nil
}

// policyChange is the answer of a change: what it did, which gated
// capabilities the policy now refuses, and which it refuses because they
// declare nothing.
func policyChange(s *session, status string, changed bool) pyjson.Value {
	_, refused := s.decisions.Denied(s.policy, s.manifest.Bytes(), s.gated())
	if refused == nil {
		refused = []pyjson.Value{}
	}
	return pyjson.Obj(pyjson.KV("status", status), pyjson.KV("changed", changed), pyjson.KV("grants", s.policy().Grants()), pyjson.KV("refused", refused),
		pyjson.KV("refused_by_default", s.refusedByDefault()))
}

// changePolicy runs a grant or a revoke of the permission argument on the
// workspace's policy.
func changePolicy(s *session, c Call, status string, change func(ps *policy.State, p policy.Permission) (bool, error)) (pyjson.Value, error) {
	if err := s.decisions.File.Locked(); err != nil {
		return pyjson.Value{}, err
	}
	p, err := policy.ParseGrant(c.Args.StrOf("permission"))
	if err != nil {
		return pyjson.Value{}, err
	}
	changed, err := change(s.policy(), p)
	if err != nil {
		return pyjson.Value{}, err
	}
	return policyChange(s, status, changed), nil
}

var policyGrantSpec = Spec{
	Op: contract.PolicyGrant,
	run: func(s *session, c Call) (pyjson.Value, error) {
		return changePolicy(s, c, "granted", func(ps *policy.State, p policy.Permission) (bool, error) { return ps.Grant(p), nil })
	},
}

var policyRevokeSpec = Spec{
	Op: contract.PolicyRevoke,
	run: func(s *session, c Call) (pyjson.Value, error) {
		return changePolicy(s, c, "revoked", (*policy.State).Revoke)
	},
}

var policySetSpec = Spec{
	Op: contract.PolicySet,
	run: func(s *session, c Call) (pyjson.Value, error) {
		if err := s.decisions.File.Locked(); err != nil {
			return pyjson.Value{}, err
		}
		var data []byte
		if in, ok := c.Input.Get("policy"); ok { // a replay reads the recorded policy
			data = []byte(in.Str())
		} else if p, ok := argJSON(c, "policy"); ok {
			data = pyjson.AppendCompact(nil, p)
		} else {
			var err error
			if data, err = policy.ReadSet(c.Args.StrOf("file")); err != nil {
				return pyjson.Value{}, err
			}
		}
		p, err := policy.ParseSet(data)
		if err != nil {
			return pyjson.Value{}, err
		}
		s.policy().Policy = p
		// The policy's text is the record, however it came: an inline
		// policy's object (a tool's) and text (a flag's) journal alike.
		s.journaled = &Call{Op: c.Op, Args: c.Args.Without("policy"), Input: pyjson.Obj(pyjson.KV("policy", string(data)))}
		return policyChange(s, "set", true), nil
	},
}

var policyClearSpec = Spec{
	Op: contract.PolicyClear,
	run: func(s *session, _ Call) (pyjson.Value, error) {
		if err := s.decisions.File.Locked(); err != nil {
			return pyjson.Value{}, err
		}
		return policyChange(s, "cleared", s.policy().Clear()), nil
	},
}

var policyBlockSpec = Spec{
	Op: contract.PolicyBlock,
	run: func(s *session, c Call) (pyjson.Value, error) {
		return pyjson.Obj(pyjson.KV("status", "recorded"), pyjson.KV("capability", c.Args.StrOf("capability")),
			pyjson.KV("missing", c.Args.StrsOf("missing"))), nil
	},
}

func policySpecs() []*Spec {
	return []*Spec{&policyShowSpec, &policyGrantSpec, &policyRevokeSpec, &policySetSpec, &policyClearSpec, &policyBlockSpec}
}
