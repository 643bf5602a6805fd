package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// The policy operations: show, grant, revoke, set, clear, and block, the
// journaled record of a capability exec refused. Every change is a
// journaled event; show only reads.

var permissionField = field.Field{Name: "permission", Type: field.String, Flag: true, Positional: true, Required: true,
	Doc: "a permission domain:action:scope, e.g. net:http:get or fs:write:./src"}

var policyShowSpec = Spec{
	Output:  policyShowOutput,
	Name:    "policy show",
	Summary: "Show the policy: its grants, and which capabilities it lets run",
	Long: `The grants (none set: every capability is granted), and for every capability
that declares permissions in the manifest whether it may run and what it
misses; under a policy the capabilities that declare none are refused by
default (refused_by_default). Also the permission domains and actions ucs
knows. ucs exec also checks the program a command starts: a proc:exec
permission the capability declares, and a grant, must cover it.`,
	Example: "ucs policy show",
	run:     opPolicyShow,
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
	Output:   policyChangeOutput,
	Name:     "policy grant",
	Operator: true,
	Summary:  "Grant a permission (the first grant sets a policy: what it does not grant is refused)",
	Long: `Grants one permission. A workspace without a policy grants everything; its
first grant makes a policy of that grant alone, so capabilities that declare
other permissions are refused from then on (the answer lists them).`,
	Example:  "ucs policy grant net:http:get\nucs policy grant 'fs:write:./src'",
	Mutating: true,
	Fields:   []field.Field{permissionField},
	run: func(s *session, c Call) (pyjson.Value, error) {
		return changePolicy(s, c, "granted", func(ps *policy.State, p policy.Permission) (bool, error) { return ps.Grant(p), nil })
	},
}

var policyRevokeSpec = Spec{
	Output:      policyChangeOutput,
	Name:        "policy revoke",
	Destructive: true,
	Operator:    true,
	Summary:     "Revoke a granted permission",
	Long:        `Removes the grant as written (a broader grant that covers it stays). With no policy there is nothing to revoke.`,
	Example:     "ucs policy revoke net:http:get",
	Mutating:    true,
	Fields:      []field.Field{permissionField},
	run: func(s *session, c Call) (pyjson.Value, error) {
		return changePolicy(s, c, "revoked", (*policy.State).Revoke)
	},
}

var policySetSpec = Spec{
	Output:      policyChangeOutput,
	Name:        "policy set",
	Destructive: true,
	Operator:    true,
	Summary:     "Replace the policy with a policy file, or one given inline",
	Long: `Reads a policy, {"version": 1, "grants": ["net:http:get", ...], "note": "..."},
from --file or inline (--policy, the MCP tool's only way), and makes it the
workspace's policy. A policy that cannot be read or parsed is refused with
what is wrong, and the policy stays as it was.`,
	Example:  "ucs policy set --file policy.json\nucs policy set --policy '{\"version\": 1, \"grants\": [\"net:http:get\"]}'",
	Mutating: true,
	Fields: []field.Field{
		{Name: "file", Type: field.String, Flag: true, Path: true, Doc: "the policy file"},
		{Name: "policy", Type: field.String, JSON: true, Flag: true, Doc: "the policy itself: {\"version\": 1, \"grants\": [...], \"note\": \"...\"}"},
	},
	check: func(c Call) error {
		_, file := c.Args.Get("file")
		p, inline := c.Args.Get("policy")
		if _, recorded := c.Input.Get("policy"); recorded { // a replay's
			return nil
		}
		if file == (inline && !p.IsNull()) {
			return badInput(fault.CodeMissingField, "give --file or --policy (over MCP: \"policy\")", "policy set needs one policy: a file or one inline")
		}
		return nil
	},
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
	Output:      policyChangeOutput,
	Name:        "policy clear",
	Destructive: true,
	Operator:    true,
	Summary:     "Remove the policy: every capability is granted again",
	Long:        `The workspace goes back to having no policy, as a new one has.`,
	Example:     "ucs policy clear",
	Mutating:    true,
	run: func(s *session, _ Call) (pyjson.Value, error) {
		if err := s.decisions.File.Locked(); err != nil {
			return pyjson.Value{}, err
		}
		return policyChange(s, "cleared", s.policy().Clear()), nil
	},
}

var policyBlockSpec = Spec{
	Output:  policyBlockOutput,
	Name:    "policy block",
	Summary: "Record that a capability was refused by the policy (ucs exec records its refusals)",
	Long: `The audit record of a refusal: the capability, the permissions it missed and
why. ucs exec records one for every command it refuses to run; log --op policy
lists them.`,
	Example:  "echo '{}' | ucs policy block --capability exec --missing proc:exec:rm",
	Mutating: true,
	Retries:  true,
	Fields: []field.Field{
		{Name: "capability", Type: field.String, Flag: true, Required: true, Doc: "the capability refused"},
		{Name: "missing", Type: field.Strings, Flag: true, Doc: "the permissions it missed"},
		{Name: "reason", Type: field.String, Flag: true, Text: true, Max: field.NoteCap, Doc: "why it was refused"},
		commandField(`the command line that was not run; a word that is not UTF-8 is {"text": ..., "base64": its bytes}`),
		{Name: policy.FileMember, Type: field.Object, Doc: "the operator's policy file that refused it, as ucs exec recorded it: path and grants"},
	},
	run: func(s *session, c Call) (pyjson.Value, error) {
		return pyjson.Obj(pyjson.KV("status", "recorded"), pyjson.KV("capability", c.Args.StrOf("capability")),
			pyjson.KV("missing", c.Args.StrsOf("missing"))), nil
	},
}

func policySpecs() []*Spec {
	return []*Spec{&policyShowSpec, &policyGrantSpec, &policyRevokeSpec, &policySetSpec, &policyClearSpec, &policyBlockSpec}
}

// policyShowOutput is the answer of policy show.
var policyShowOutput = []field.Output{
	{Name: "policy", Type: field.Object, Always: true, Doc: "whether a policy is set, and how many grants it has"},
	{Name: "grants", Type: field.Strings, Null: true, Always: true, Doc: "the permissions granted; null: no policy, every capability is granted"},
	{Name: "capabilities", Type: field.Objects, Always: true, Doc: "each capability of the manifest: its permissions, and whether the policy allows it"},
	{Name: "domains", Type: field.Objects, Always: true, Doc: "the permission domains, their actions and scope"},
}

// policyChangeOutput is the answer of a change of the policy (grant, revoke, set, clear).
var policyChangeOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "what was done"},
	{Name: "changed", Type: field.Bool, Always: true, Doc: "the policy changed"},
	{Name: "grants", Type: field.Strings, Null: true, Always: true, Doc: "the permissions granted now; null: no policy, every capability is granted"},
	{Name: "refused", Type: field.Objects, Always: true, Doc: "the gated capabilities the policy now refuses, and what they miss"},
}

// policyBlockOutput is the answer of policy block.
var policyBlockOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "\"recorded\""},
	{Name: "capability", Type: field.String, Always: true, Doc: "the capability refused"},
	{Name: "missing", Type: field.Strings, Always: true, Doc: "the permissions it lacked"},
}
