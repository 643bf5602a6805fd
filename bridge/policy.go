package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// The session's side of the policy (package policy decides). The
// workspace's policy is the state file's "permissions" member
// (policy.State), so it changes only by a journaled call and verify
// replays it; the operator's policy file (Options.PolicyFile), when one
// is in force, overrides it, and the call's event records the file's
// grants once a decision used them (policy.FileMember).

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

// rules is the policy the call's decisions use: the policy file's when one
// is in force (then the call's event records it), else the workspace's.
func (s *session) rules() *policy.Policy {
	if s.policyFile != nil {
		s.policyFileUsed = true
		return s.policyFile.Policy
	}
	return s.policy().Policy
}

// gate joins the call's policy to the manifest's declarations.
func (s *session) gate() policy.Gate {
	return policy.Gate{Policy: s.rules(), Decls: s.declarations(), UngatedAllowed: s.ungatedAllowed}
}

// denied lists the capabilities among names the policy refuses, with why.
func (s *session) denied(names []string) ([]string, []pyjson.Value) {
	if s.rules() == nil {
		return nil, nil // no policy: the declarations need not be parsed
	}
	return s.gate().Denied(names)
}

// withoutDenied drops from a ranking the capabilities the policy refuses,
// and notes them for the answer and the event.
func withoutDenied[T any](s *session, ranked []T, name func(T) string) []T {
	if s.rules() == nil {
		return ranked
	}
	kept, refused, byDefault := policy.Without(s.gate(), ranked, name)
	s.leftOut = append(s.leftOut, refused...)
	s.deniedByDefault = s.deniedByDefault || byDefault
	return kept
}

// gated lists the manifest's capabilities that declare permissions, sorted.
func (s *session) gated() []string {
	if !policy.Declares(s.manifest.Bytes()) {
		return nil
	}
	return policy.Gated(s.declarations())
}

// refusedByDefault lists, under a policy, the manifest's capabilities that
// declare no permission (each refused by default); empty without one.
func (s *session) refusedByDefault() []string {
	if s.rules() == nil {
		return []string{}
	}
	decls := map[string]policy.Declaration{}
	if policy.Declares(s.manifest.Bytes()) {
		decls = s.declarations()
	}
	return append([]string{}, policy.Undeclared(s.manifest.Names(), decls)...)
}

// policyStatus is what status adds about the policy.
func (s *session) policyStatus() pyjson.Value {
	if s.policyFile != nil {
		return policy.Status(s.policyFile, nil)
	}
	return policy.Status(nil, s.policy().Policy)
}

// policyFileFor is the policy file of a call: the one the journal event
// recorded when replaying (none if it recorded none), else the options'.
func (b *Bridge) policyFileFor(c Call) (*policy.File, error) {
	if b.replaying {
		if v, ok := c.Input.Get(policy.FileMember); ok && v.Kind() == pyjson.Object {
			return policy.FileFromRecord(v)
		}
		return nil, nil
	}
	if b.opts.PolicyFile == "" {
		return nil, nil
	}
	return policy.LoadFile(b.opts.PolicyFile)
}
