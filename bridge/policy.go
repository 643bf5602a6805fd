package bridge

import (
	"bytes"
	"errors"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// The workspace's policy (Oracle Omen: no implicit permissions). A
// manifest capability may declare the permissions it needs
// (domain:action:scope); the policy grants permissions. A workspace with
// no policy grants everything (and status says so); once one is set,
// nothing is granted by default: a capability is suggested (consult) only
// when it declares permissions and every one is granted, and it runs
// (exec) only when, besides, a proc:exec permission it declares and a
// grant both cover the program run (policy.CheckExec). The policy is the
// state file's "permissions" member (policy.State; the engine already has
// one named "policy"), so it changes only by a journaled call (policy
// grant, revoke, set, clear) and verify replays it; a member that cannot
// be parsed refuses every gated capability (fail closed), and check
// reports it.

// policy returns the workspace's policy, decoding it on first use.
func (s *session) policy() *policy.State {
	ps, _ := s.state.policy.get(s) // a member that cannot be parsed decodes to a policy that fails closed
	return ps
}

// declarations returns what the workspace manifest's capabilities declare.
func (s *session) declarations() map[string]policy.Declaration {
	if s.decls == nil {
		d, err := policy.ParseDeclarations(s.manifest.Bytes())
		if err != nil {
			// init refused such a manifest; one pinned before declarations
			// existed declares nothing ucs knows.
			d = map[string]policy.Declaration{}
		}
		s.decls = d
	}
	return s.decls
}

// decide says whether a capability may run under the workspace's policy.
func (s *session) decide(capability string) policy.Decision {
	perms := s.declarations()[capability].Permissions
	if len(perms) == 0 && s.ungatedAllowed && s.rules() != nil {
		return policy.Decision{Allowed: true, Reason: reasonUngatedBefore}
	}
	return s.rules().Check(perms)
}

// A policy did not always deny by default: a capability that declared
// nothing ran, and consult suggested it. A consult that leaves one out for
// that records policyDefaultMember in its event; the replay of an event
// without it (recorded before) decides as that call did.
const (
	policyDefaultMember = "policy_default"
	reasonUngatedBefore = "the capability declares no permissions (recorded before a policy denied by default)"
)

// denied lists the capabilities among names the policy refuses, with why,
// in the order given; nil when nothing is refused.
func (s *session) denied(names []string) ([]string, []pyjson.Value) {
	if s.rules() == nil {
		return nil, nil
	}
	var out []string
	var why []pyjson.Value
	for _, n := range names {
		if d := s.decide(n); !d.Allowed {
			out = append(out, n)
			why = append(why, pyjson.Obj(pyjson.KV("capability", n), pyjson.KV("missing", permStrings(d.Missing)), pyjson.KV("reason", d.Reason)))
		}
	}
	return out, why
}

func permStrings(ps []policy.Permission) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// policyStatus is what status adds about the policy.
func (s *session) policyStatus() pyjson.Value {
	if f := s.policyFile; f != nil {
		return pyjson.Obj(pyjson.KV("set", true), pyjson.KV("file", f.path), pyjson.KV("locked", true), pyjson.KV("grants", len(f.p.Grants)),
			pyjson.KV("note", "the policy is the operator's file: ucs policy grant, revoke, set and clear are refused"))
	}
	p := s.policy().Policy
	switch {
	case p == nil:
		return pyjson.Obj(pyjson.KV("set", false), pyjson.KV("note", "no policy: every capability is granted"))
	case p.Err() != nil:
		return pyjson.Obj(pyjson.KV("set", true), pyjson.KV("error", p.Err().Error()),
			pyjson.KV("note", "the policy cannot be read: every capability that declares permissions is refused"))
	}
	return pyjson.Obj(pyjson.KV("set", true), pyjson.KV("grants", len(p.Grants)))
}

// checkPolicyMember is check's judgment of the state's policy member.
func checkPolicyMember(raw []byte) error {
	if !gjson.ValidBytes(raw) {
		return errors.New("not valid JSON")
	}
	_, err := policy.ParsePolicy(raw)
	return err
}

// undeclared lists the manifest's capabilities that declare no
// permission, sorted: under a policy each is refused by default.
func (s *session) undeclared() []string {
	var out []string
	decls := map[string]policy.Declaration{}
	if bytes.Contains(s.manifest.Bytes(), []byte(`"permissions"`)) {
		decls = s.declarations()
	}
	for _, name := range s.manifest.Names() {
		if len(decls[name].Permissions) == 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// refusedByDefault is undeclared under a policy, and empty without one.
func (s *session) refusedByDefault() []string {
	if s.rules() == nil {
		return []string{}
	}
	return append([]string{}, s.undeclared()...)
}

// gated lists the manifest's capabilities that declare permissions, sorted.
func (s *session) gated() []string {
	if !bytes.Contains(s.manifest.Bytes(), []byte(`"permissions"`)) {
		return nil // most manifests declare none: no need to parse them again
	}
	var out []string
	for name, d := range s.declarations() {
		if len(d.Permissions) > 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// withoutDenied drops from a ranking the capabilities the policy refuses,
// and notes them for the answer (consult never suggests what may not run).
func withoutDenied[T any](s *session, ranked []T, name func(T) string) []T {
	if s.rules() == nil {
		return ranked
	}
	out := ranked[:0:0]
	for _, r := range ranked {
		n := name(r)
		if d := s.decide(n); !d.Allowed {
			if d.Reason == policy.ReasonUngated {
				s.deniedByDefault = true
			}
			s.leftOut = append(s.leftOut, pyjson.Obj(pyjson.KV("capability", n), pyjson.KV("missing", permStrings(d.Missing)), pyjson.KV("reason", d.Reason)))
			continue
		}
		out = append(out, r)
	}
	return out
}
