package bridge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// A policy file (Options.PolicyFile: ucs --policy-file, UCS_POLICY_FILE) is
// a policy the agent cannot write: the operator's. The workspace's own
// policy lives in its state, which the agent changes with ucs policy
// grant; a policy file is a file the calling user must not be able to
// write, nor replace (ucs refuses to use it otherwise: policy_file_writable,
// exit 2; one it cannot read is policy_file_unreadable, one that does not
// parse policy_file_invalid, both exit 2). With one in force the file is the policy: the workspace's is
// ignored, and policy grant, revoke, set and clear are refused
// (policy_locked, exit 2).
//
// "Can write" is judged as the kernel judges it for the calling process
// (access(2) with the effective ids, so groups and ACLs count), for the
// file and for every directory above it, both along the path as given and
// along the path its symbolic links lead to: whoever can write a directory
// can replace what is in it. A directory with the sticky bit (/tmp) lets a
// user replace only its own entries, so it counts only when the user owns
// it or the entry below it. Root can write any file, so for root a policy
// file protects nothing, and ucs refuses it: run the agent as a user that
// cannot write it.
//
// A call whose decisions use the file records its grants in its journal
// event (member policy_file: the path and the grants), so verify replays
// the same decisions without the file: consult, which leaves out what the
// policy refuses, and policy block, exec's refusal.

// policyFileMember is the journal's record of the policy file a call used.
const policyFileMember = "policy_file"

// A policyFile is the policy file in force for a call.
type policyFile struct {
	path string // absolute
	p    *policy.Policy
}

// record is the file as a journal event keeps it: its path and grants.
func (f *policyFile) record() pyjson.Value {
	return pyjson.Obj(pyjson.KV("path", f.path), pyjson.KV("grants", permStrings(f.p.Grants)))
}

// policyFileFromRecord is the file a journal event recorded (replay).
func policyFileFromRecord(v pyjson.Value) (*policyFile, error) {
	path, _ := v.Get("path")
	grants, _ := v.Get("grants")
	p := policy.New()
	for _, g := range grants.Items() {
		perm, err := policy.ParsePermission(g.Str())
		if err != nil {
			return nil, badInput(fault.CodeInvalidPolicy, "the journal's policy_file record holds grants", "policy_file: %v", err)
		}
		p.Grant(perm)
	}
	return &policyFile{path: path.Str(), p: p}, nil
}

// loadPolicyFile reads the policy file name, refusing one the calling user
// can write (policy_file_writable), cannot read (policy_file_unreadable)
// or that does not parse (policy_file_invalid): all exit 2, before
// anything else.
func loadPolicyFile(name string) (*policyFile, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, badInput(fault.CodePolicyFileUnreadable, "give the policy file's path", "the policy file %s: %v", quote(name), err)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, badInput(fault.CodePolicyFileUnreadable, "give a policy file this user can read (and not write)", "cannot read the policy file: %v", err)
	}
	if w, err := writablePath(abs); err != nil {
		return nil, badInput(fault.CodePolicyFileUnreadable, "give a policy file this user can read (and not write)", "the policy file %s: %v", quote(abs), err)
	} else if w != "" {
		what := "the policy file"
		if w != abs {
			what = "the directory " + quote(w) + " above it"
		}
		return nil, badInput(fault.CodePolicyFileWritable,
			"make the file and every directory above it writable only by another user (the operator: e.g. root-owned, mode 0644 in a 0755 directory), and run the agent as a user that is not root",
			"refusing the policy file %s: this user can write %s, so the agent could change its own policy", quote(abs), what)
	}
	p, err := policy.ParsePolicy(data)
	if err != nil {
		return nil, badInput(fault.CodePolicyFileInvalid, `write {"version": 1, "grants": ["domain:action:scope", ...]}`, "the policy file %s: %v", quote(abs), err)
	}
	return &policyFile{path: abs, p: p}, nil
}

// policyFileFor is the policy file of a call: the one the journal event
// recorded when replaying (none if it recorded none), else the options'.
func (b *Bridge) policyFileFor(c Call) (*policyFile, error) {
	if b.replaying {
		if v, ok := c.Input.Get(policyFileMember); ok && v.Kind() == pyjson.Object {
			return policyFileFromRecord(v)
		}
		return nil, nil
	}
	if b.opts.PolicyFile == "" {
		return nil, nil
	}
	return loadPolicyFile(b.opts.PolicyFile)
}

// isPolicyFileError reports whether err is a policy file that cannot be
// used: the operator's to fix, never a reason to drop a queued call.
func isPolicyFileError(err error) bool {
	var e *fault.Error
	return errors.As(err, &e) && strings.HasPrefix(e.Code, "policy_file_")
}

// rules is the policy the call's decisions use: the policy file's when one
// is in force (then the call's event records it), else the workspace's.
func (s *session) rules() *policy.Policy {
	if s.policyFile != nil {
		s.policyFileUsed = true
		return s.policyFile.p
	}
	return s.policy().Policy
}

// policyLocked refuses a change of the workspace's policy while a policy
// file is in force.
func (s *session) policyLocked() error {
	if s.policyFile == nil {
		return nil
	}
	return badInput(fault.CodePolicyLocked, "the operator changes the policy file; ucs policy show lists what it grants",
		"the policy is the file %s: ucs does not change it", quote(s.policyFile.path))
}
