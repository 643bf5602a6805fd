package policy

import (
	"bytes"
	"slices"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Gate joins a policy to what a manifest's capabilities declare: the
// decisions a call makes about the capabilities it suggests or runs.
type Gate struct {
	// Policy is the policy in force (nil: none, everything is granted).
	Policy *Policy
	// Decls are what the manifest's capabilities declare.
	Decls map[string]Declaration
	// UngatedAllowed decides as a policy did before it denied by default:
	// a capability that declares nothing runs (a replay of an event
	// recorded before, which lacks DefaultMember).
	UngatedAllowed bool
}

// A policy did not always deny by default: a capability that declared
// nothing ran, and consult suggested it. A consult that leaves one out for
// that records DefaultMember in its event; the replay of an event without
// it (recorded before) decides as that call did (Gate.UngatedAllowed).
const (
	DefaultMember       = "policy_default"
	reasonUngatedBefore = "the capability declares no permissions (recorded before a policy denied by default)"
)

// Decide says whether the capability may run under the policy.
func (g Gate) Decide(capability string) Decision {
	perms := g.Decls[capability].Permissions
	if len(perms) == 0 && g.UngatedAllowed && g.Policy != nil {
		return Decision{Allowed: true, Reason: reasonUngatedBefore}
	}
	return g.Policy.Check(perms)
}

// Refusal is a refused capability as an answer lists it: its name, what
// it misses and why.
func Refusal(capability string, d Decision) pyjson.Value {
	return pyjson.Obj(pyjson.KV("capability", capability), pyjson.KV("missing", Strings(d.Missing)), pyjson.KV("reason", d.Reason))
}

// Denied lists the capabilities among names the policy refuses, with why
// (Refusal), in the order given; nil when nothing is refused.
func (g Gate) Denied(names []string) ([]string, []pyjson.Value) {
	if g.Policy == nil {
		return nil, nil
	}
	var out []string
	var why []pyjson.Value
	for _, n := range names {
		if d := g.Decide(n); !d.Allowed {
			out = append(out, n)
			why = append(why, Refusal(n, d))
		}
	}
	return out, why
}

// Without drops from a ranking the capabilities the gate refuses (consult
// never suggests what may not run), and returns them as Refusals, with
// whether one was refused for declaring nothing.
func Without[T any](g Gate, ranked []T, name func(T) string) (kept []T, refused []pyjson.Value, byDefault bool) {
	if g.Policy == nil {
		return ranked, nil, false
	}
	kept = ranked[:0:0]
	for _, r := range ranked {
		n := name(r)
		if d := g.Decide(n); !d.Allowed {
			byDefault = byDefault || d.Reason == ReasonUngated
			refused = append(refused, Refusal(n, d))
			continue
		}
		kept = append(kept, r)
	}
	return kept, refused, byDefault
}

// Declares reports whether a manifest may declare permissions at all: most
// declare none, and a call then need not parse them again.
func Declares(manifest []byte) bool { return bytes.Contains(manifest, []byte(`"permissions"`)) }

// Gated lists the capabilities that declare permissions, sorted.
func Gated(decls map[string]Declaration) []string {
	var out []string
	for name, d := range decls {
		if len(d.Permissions) > 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Undeclared lists the names whose capability declares no permission,
// sorted: under a policy each is refused by default.
func Undeclared(names []string, decls map[string]Declaration) []string {
	var out []string
	for _, name := range names {
		if len(decls[name].Permissions) == 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Strings spells permissions as a policy file and an answer write them.
func Strings(ps []Permission) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}
