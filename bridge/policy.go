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
// grants once a decision used them (policy.Decisions).

// policy returns the workspace's policy, decoding it on first use.
func (s *session) policy() *policy.State {
	ps, _ := s.state.policy.get(s) // a member that cannot be parsed decodes to a policy that fails closed
	return ps
}

// declarations returns what the workspace manifest's capabilities declare.
func (s *session) declarations() map[string]policy.Declaration {
	return s.decisions.Declarations(s.manifest.Bytes())
}

// withoutDenied drops from a ranking the capabilities the policy refuses,
// and notes them for the answer and the event (policy.Keep).
func withoutDenied[T any](s *session, ranked []T, name func(T) string) []T {
	return policy.Keep(&s.decisions, s.policy, s.manifest.Bytes(), ranked, name)
}

// gated lists the manifest's capabilities that declare permissions, sorted.
func (s *session) gated() []string { return s.decisions.Gated(s.manifest.Bytes()) }

// refusedByDefault lists, under a policy, the manifest's capabilities that
// declare no permission (each refused by default); empty without one.
func (s *session) refusedByDefault() []string {
	return s.decisions.RefusedByDefault(s.policy, s.manifest.Bytes(), s.manifest.Names())
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
