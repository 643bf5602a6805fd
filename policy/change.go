package policy

import (
	"os"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The changes of a workspace's policy (ucs policy grant, revoke, set and
// clear), each a journaled call. A policy that cannot be read is replaced
// by a change, never amended: what it granted is unknown.

// ParseGrant parses the permission a grant or a revoke names; what
// ParsePermission refuses is invalid_permission (exit 2).
func ParseGrant(s string) (Permission, error) {
	p, err := ParsePermission(s)
	if err != nil {
		return Permission{}, fault.BadInput(fault.CodeInvalidPermission, "write domain:action:scope; ucs policy show lists the domains and actions", "%v", err)
	}
	return p, nil
}

// ParseSet parses the policy a policy set gives; what ParsePolicy refuses
// is invalid_policy (exit 2).
func ParseSet(data []byte) (*Policy, error) {
	p, err := ParsePolicy(data)
	if err != nil {
		return nil, fault.BadInput(fault.CodeInvalidPolicy, `write {"version": 1, "grants": ["domain:action:scope", ...]}`, "%v", err)
	}
	return p, nil
}

// readable drops a policy that cannot be read.
func (st *State) readable() {
	if st.Policy != nil && st.Policy.Err() != nil {
		st.Policy = nil
	}
}

// Grant grants p, and reports whether the policy changed. A workspace
// without a policy gets one of that grant alone: from then on what it
// does not grant is refused.
func (st *State) Grant(p Permission) bool {
	st.readable()
	if st.Policy == nil {
		st.Policy = New()
	}
	return st.Policy.Grant(p)
}

// Revoke removes the grant p as written (a broader grant that covers it
// stays), and reports whether the policy changed; with no policy there is
// nothing to revoke (no_policy, exit 2).
func (st *State) Revoke(p Permission) (bool, error) {
	st.readable()
	if st.Policy == nil {
		return false, fault.BadInput(fault.CodeNoPolicy, "grant a permission first: ucs policy grant ...", "the workspace has no policy to revoke from")
	}
	return st.Policy.Revoke(p), nil
}

// Clear removes the policy, and reports whether there was one.
func (st *State) Clear() bool {
	changed := st.Policy != nil
	st.Policy = nil
	return changed
}

// Grants are the workspace's grants as an answer lists them; null for no
// policy, which grants everything.
func (st *State) Grants() any {
	if st.Policy == nil {
		return nil
	}
	return Strings(st.Policy.Grants)
}

// Show is policy show's answer but for the policy's status and the
// capabilities refused by default: every capability that declares
// permissions (gated) with whether the gate lets it run, the grants in
// force (null when there are none to list), and the domains ucs knows.
func Show(g Gate, gated []string) (caps []pyjson.Value, grants any, domains []pyjson.Value) {
	caps = []pyjson.Value{}
	for _, name := range gated {
		d := g.Decide(name)
		caps = append(caps, pyjson.Obj(pyjson.KV("capability", name),
			pyjson.KV("permissions", Strings(g.Decls[name].Permissions)),
			pyjson.KV("allowed", d.Allowed), pyjson.KV("missing", Strings(d.Missing)), pyjson.KV("reason", d.Reason)))
	}
	if g.Policy != nil && g.Policy.Err() == nil {
		grants = Strings(g.Policy.Grants)
	}
	domains = make([]pyjson.Value, len(Domains))
	for i, d := range Domains {
		domains[i] = pyjson.Obj(pyjson.KV("domain", d.Name), pyjson.KV("actions", d.Actions), pyjson.KV("scope", d.Doc))
	}
	return caps, grants, domains
}

// ReadSet reads the policy file a policy set names; a file that cannot be
// read is unreadable_file (exit 2), and the policy stays as it was.
func ReadSet(file string) ([]byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fault.BadInput(fault.CodeUnreadableFile, "give a readable policy file", "cannot read the policy file: %v", err)
	}
	return data, nil
}
