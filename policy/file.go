package policy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// An operator's policy file (ucs --policy-file, UCS_POLICY_FILE) is a
// policy the agent cannot write. The workspace's own policy lives in its
// state, which the agent changes with ucs policy grant; a policy file is
// a file the calling user must not be able to write, nor replace (LoadFile
// refuses it otherwise: policy_file_writable, exit 2; one it cannot read
// is policy_file_unreadable, one that does not parse policy_file_invalid,
// both exit 2). With one in force the file is the policy: the
// workspace's is ignored, and policy grant, revoke, set and clear are
// refused (policy_locked, exit 2).
//
// "Can write" is judged as the kernel judges it for the calling process
// (access(2) with the effective ids, so groups and ACLs count), for the
// file and for every directory above it, both along the path as given and
// along the path its symbolic links lead to: whoever can write a directory
// can replace what is in it. A directory with the sticky bit (/tmp) lets a
// user replace only its own entries, so it counts only when the user owns
// it or the entry below it. Root can write any file, so for root a policy
// file protects nothing, and LoadFile refuses it: run the agent as a user
// that cannot write it.
//
// A call whose decisions use the file records its grants in its journal
// event (FileMember: File.Record), so verify replays the same decisions
// without the file (FileFromRecord).

// FileMember is the journal event's member that records the policy file a
// call used.
const FileMember = "policy_file"

// A File is the operator's policy file in force for a call.
type File struct {
	Path   string // absolute
	Policy *Policy
}

// Record is the file as a journal event keeps it: its path and grants.
func (f *File) Record() pyjson.Value {
	return pyjson.Obj(pyjson.KV("path", f.Path), pyjson.KV("grants", Strings(f.Policy.Grants)))
}

// FileFromRecord is the file a journal event recorded (replay).
func FileFromRecord(v pyjson.Value) (*File, error) {
	path, _ := v.Get("path")
	grants, _ := v.Get("grants")
	p := New()
	for _, g := range grants.Items() {
		perm, err := ParsePermission(g.Str())
		if err != nil {
			return nil, fault.BadInput(fault.CodeInvalidPolicy, "the journal's policy_file record holds grants", "policy_file: %v", err)
		}
		p.Grant(perm)
	}
	return &File{Path: path.Str(), Policy: p}, nil
}

// LoadFile reads the policy file name, refusing one the calling user can
// write (policy_file_writable), cannot read (policy_file_unreadable) or
// that does not parse (policy_file_invalid): all exit 2, before anything
// else.
func LoadFile(name string) (*File, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, fault.BadInput(fault.CodePolicyFileUnreadable, "give the policy file's path", "the policy file %s: %v", quote(name), err)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fault.BadInput(fault.CodePolicyFileUnreadable, "give a policy file this user can read (and not write)", "cannot read the policy file: %v", err)
	}
	if w, err := writablePath(abs); err != nil {
		return nil, fault.BadInput(fault.CodePolicyFileUnreadable, "give a policy file this user can read (and not write)", "the policy file %s: %v", quote(abs), err)
	} else if w != "" {
		what := "the policy file"
		if w != abs {
			what = "the directory " + quote(w) + " above it"
		}
		return nil, fault.BadInput(fault.CodePolicyFileWritable,
			"make the file and every directory above it writable only by another user (the operator: e.g. root-owned, mode 0644 in a 0755 directory), and run the agent as a user that is not root",
			"refusing the policy file %s: this user can write %s, so the agent could change its own policy", quote(abs), what)
	}
	p, err := ParsePolicy(data)
	if err != nil {
		return nil, fault.BadInput(fault.CodePolicyFileInvalid, `write {"version": 1, "grants": ["domain:action:scope", ...]}`, "the policy file %s: %v", quote(abs), err)
	}
	return &File{Path: abs, Policy: p}, nil
}

// IsFileError reports whether err is a policy file that cannot be used:
// the operator's to fix, never a reason to drop a queued call.
func IsFileError(err error) bool {
	var e *fault.Error
	return errors.As(err, &e) && strings.HasPrefix(e.Code, "policy_file_")
}

// Locked refuses a change of the workspace's policy while the policy file
// f is in force; nil when f is nil.
func (f *File) Locked() error {
	if f == nil {
		return nil
	}
	return fault.BadInput(fault.CodePolicyLocked, "the operator changes the policy file; ucs policy show lists what it grants",
		"the policy is the file %s: ucs does not change it", quote(f.Path))
}

// quote writes s as a JSON string, as messages name paths.
func quote(s string) string { return string(pyjson.AppendString(nil, s)) }
