package policy

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// Decisions is what one call's policy decisions rest on, and what its
// journal event must record of them so a replay decides the same: the
// operator's policy file in force, the manifest's declarations (parsed
// once, when a decision needs them) and what a ranking left out.
//
// The workspace's policy is the state file's member, which the caller
// decodes only when a decision needs it: the methods that may need it
// take ws, which returns it.
type Decisions struct {
	// File is the operator's policy file in force, which overrides the
	// workspace's policy; FileUsed says a decision used it, so the call's
	// event records it (FileMember).
	File     *File
	FileUsed bool
	// DeniedByDefault says a ranking left out a capability for declaring
	// no permission, so the call's event records DefaultMember;
	// UngatedAllowed replays an event recorded before that rule (Gate).
	DeniedByDefault, UngatedAllowed bool
	// LeftOut lists what a ranking left out because the policy refuses
	// it, as Refusals.
	LeftOut []pyjson.Value
	decls   map[string]Declaration
}

// Declarations returns what the capabilities of the manifest (its bytes)
// declare, parsed on first use. A manifest whose declarations cannot be
// parsed declares nothing: init refuses such a manifest, and one pinned
// before declarations existed declares nothing ucs knows.
func (d *Decisions) Declarations(manifest []byte) map[string]Declaration {
	if d.decls == nil {
		decls, err := ParseDeclarations(manifest)
		if err != nil {
			decls = map[string]Declaration{}
		}
		d.decls = decls
	}
	return d.decls
}

// Rules is the policy the call's decisions use: the file's when one is in
// force (then the call's event records it), else the workspace's.
func (d *Decisions) Rules(ws func() *State) *Policy {
	if d.File != nil {
		d.FileUsed = true
		return d.File.Policy
	}
	return ws().Policy
}

// Gate joins the call's policy to the manifest's declarations.
func (d *Decisions) Gate(ws func() *State, manifest []byte) Gate {
	return Gate{Policy: d.Rules(ws), Decls: d.Declarations(manifest), UngatedAllowed: d.UngatedAllowed}
}

// Denied lists the capabilities among names the policy refuses, with why
// (Gate.Denied). Without a policy the declarations are not parsed.
func (d *Decisions) Denied(ws func() *State, manifest []byte, names []string) ([]string, []pyjson.Value) {
	if d.Rules(ws) == nil {
		return nil, nil
	}
	return d.Gate(ws, manifest).Denied(names)
}

// Keep drops from a ranking the capabilities the policy refuses (Without),
// and notes them in LeftOut and DeniedByDefault for the answer and the
// event. Without a policy the declarations are not parsed.
func Keep[T any](d *Decisions, ws func() *State, manifest []byte, ranked []T, name func(T) string) []T {
	if d.Rules(ws) == nil {
		return ranked
	}
	kept, refused, byDefault := Without(d.Gate(ws, manifest), ranked, name)
	d.LeftOut = append(d.LeftOut, refused...)
	d.DeniedByDefault = d.DeniedByDefault || byDefault
	return kept
}

// Gated lists the manifest's capabilities that declare permissions,
// sorted. A manifest that declares none is not parsed.
func (d *Decisions) Gated(manifest []byte) []string {
	if !Declares(manifest) {
		return nil
	}
	return Gated(d.Declarations(manifest))
}

// RefusedByDefault lists, under a policy, the capabilities among the
// manifest's names that declare no permission (each refused by default,
// Undeclared); empty, not nil, without a policy.
func (d *Decisions) RefusedByDefault(ws func() *State, manifest []byte, names []string) []string {
	if d.Rules(ws) == nil {
		return []string{}
	}
	decls := map[string]Declaration{}
	if Declares(manifest) {
		decls = d.Declarations(manifest)
	}
	return append([]string{}, Undeclared(names, decls)...)
}

// Status is what status says of the policy in force (Status): the file's
// when one is in force, else the workspace's.
func (d *Decisions) Status(ws func() *State) pyjson.Value {
	if d.File != nil {
		return Status(d.File, nil)
	}
	return Status(nil, ws().Policy)
}

// Record adds to a call's recorded input, in sorted key order, what its
// decisions need to be replayed: the file a decision used (FileMember)
// and a denial by default (DefaultMember). An input that records neither
// is returned as it is.
func (d *Decisions) Record(in pyjson.Value) pyjson.Value {
	if !d.FileUsed && !d.DeniedByDefault {
		return in
	}
	if in.Kind() != pyjson.Object {
		in = pyjson.Obj()
	}
	if d.FileUsed {
		in = in.With(FileMember, d.File.Record())
	}
	if d.DeniedByDefault {
		in = in.With(DefaultMember, "deny")
	}
	return pyjson.SortKeys(in)
}
