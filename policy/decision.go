package policy

import (
	"slices"
	"strings"
)

// A Decision is the answer of Check for one capability: may it run, and if
// not, which of its permissions no grant covers.
type Decision struct {
	Allowed bool
	// Missing are the needed permissions no grant covers, in the order
	// they were declared, each once. Empty when Allowed.
	Missing []Permission
	// Reason says why, in a sentence for the journal and the agent.
	Reason string
}

// Reasons of the decisions Check makes besides listing what is missing.
const (
	ReasonNoPolicy = "no policy file: everything is granted"
	// ReasonUngated refuses a capability that declares nothing: under a
	// policy nothing is granted by default, so a capability that says
	// nothing of what it does cannot run.
	ReasonUngated    = "the capability declares no permissions, and a policy grants nothing by default"
	ReasonGranted    = "every permission is granted"
	reasonUnreadable = "the policy file cannot be used, so every capability is refused: "
)

// Check decides whether a capability that needs perms may run:
//
//   - a nil policy (no policy file) allows everything (ReasonNoPolicy);
//   - an unreadable policy (Unreadable, FromFile) refuses every
//     capability, with all its permissions missing and the policy's error
//     in the reason: it fails closed;
//   - a capability that needs nothing is refused (ReasonUngated, nothing
//     Missing): a policy denies by default;
//   - otherwise every needed permission must be covered by a grant
//     (Permission.Covers), and Missing lists those that are not.
//
// Check judges what a capability declares; CheckExec also judges the
// program a run of it would start.
func (p *Policy) Check(perms []Permission) Decision {
	if p == nil {
		return Decision{Allowed: true, Reason: ReasonNoPolicy}
	}
	if len(perms) == 0 && p.err == nil {
		return Decision{Reason: ReasonUngated}
	}
	var missing []Permission
	for _, need := range perms {
		if p.err == nil && p.covered(need) || slices.Contains(missing, need) {
			continue
		}
		missing = append(missing, need)
	}
	switch {
	case p.err != nil:
		return Decision{Missing: missing, Reason: reasonUnreadable + p.err.Error()}
	case len(missing) == 0:
		return Decision{Allowed: true, Reason: ReasonGranted}
	}
	names := make([]string, len(missing))
	for i, m := range missing {
		names[i] = m.String()
	}
	return Decision{Missing: missing, Reason: "not granted: " + strings.Join(names, ", ")}
}

// Covering returns the first grant that covers need, for an explanation;
// false when none does (always for a nil or unreadable policy).
func (p *Policy) Covering(need Permission) (Permission, bool) {
	if p == nil || p.err != nil {
		return Permission{}, false
	}
	for _, g := range p.Grants {
		if g.Covers(need) {
			return g, true
		}
	}
	return Permission{}, false
}

func (p *Policy) covered(need Permission) bool {
	_, ok := p.Covering(need)
	return ok
}
