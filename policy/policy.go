package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Version is the format version of a policy file.
const Version = 1

// A Policy is a workspace's grants: the permissions its capabilities may
// use. It is the policy file
//
//	{"version": 1, "grants": ["fs:read:*", "net:http:get"], "note": "why"}
//
// A nil *Policy stands for a workspace without a policy file, which grants
// everything; a policy made by Unreadable stands for a file that could not
// be read or parsed, which grants nothing (see Check). A Policy is not safe
// for concurrent use.
type Policy struct {
	// Grants are the granted permissions in the file's order, without
	// duplicates. Grant and Revoke keep it so; code that sets it directly
	// must too.
	Grants []Permission
	// Note is free text for the people who edit the file ("" when absent).
	Note string

	err error // why the file could not be read or parsed (Unreadable)
}

// A PolicyError says what is wrong with a policy file, and where.
type PolicyError struct {
	Member string // e.g. "grants[2]", "version"; "" for the document
	Msg    string
}

func (e *PolicyError) Error() string {
	if e.Member == "" {
		return "policy: " + e.Msg
	}
	return "policy: " + e.Member + ": " + e.Msg
}

// policyMembers are the members a policy file may have.
var policyMembers = []string{"version", "grants", "note"}

// New returns a policy that grants perms (without duplicates) and nothing
// else: the start of a new policy file.
func New(perms ...Permission) *Policy {
	p := &Policy{}
	p.Grant(perms...)
	return p
}

// ParsePolicy parses a policy file. It refuses a document that is not a
// JSON object, members other than version, grants and note (also when
// repeated), a version other than 1, grants that are not a list of
// strings, and any grant ParsePermission refuses (the error names the
// index and the string). A grant given twice is kept once, where it first
// appears. Every error is a *PolicyError.
func ParsePolicy(data []byte) (*Policy, error) {
	doc, err := pyjson.Parse(data)
	if err != nil {
		return nil, &PolicyError{Msg: err.Error()}
	}
	if doc.Kind() != pyjson.Object {
		return nil, &PolicyError{Msg: "the document must be a JSON object, got " + doc.Kind().Noun()}
	}
	// pyjson keeps the last of repeated keys, which a reader of the file
	// may not expect: refuse them.
	seen := map[string]bool{}
	var dup string
	gjson.ParseBytes(data).ForEach(func(k, _ gjson.Result) bool {
		if seen[k.String()] {
			dup = k.String()
			return false
		}
		seen[k.String()] = true
		return true
	})
	if dup != "" {
		return nil, &PolicyError{Member: fmt.Sprintf("%q", dup), Msg: "appears more than once"}
	}
	for _, m := range doc.Members() {
		if !slices.Contains(policyMembers, m.Key) {
			return nil, &PolicyError{Member: fmt.Sprintf("%q", m.Key),
				Msg: "unknown member (known: " + strings.Join(policyMembers, ", ") + ")"}
		}
	}
	if v, ok := doc.Get("version"); !ok {
		return nil, &PolicyError{Member: "version", Msg: "missing: it must be 1"}
	} else if n, isInt := v.Int(); !isInt || v.Kind() != pyjson.Int || n != Version {
		return nil, &PolicyError{Member: "version", Msg: fmt.Sprintf("must be %d, got %s", Version, pyjson.AppendCompact(nil, v))}
	}
	p := &Policy{}
	gv, ok := doc.Get("grants")
	if !ok || gv.Kind() != pyjson.Array {
		return nil, &PolicyError{Member: "grants", Msg: "must be a list of permission strings"}
	}
	for i, item := range gv.Items() {
		if item.Kind() != pyjson.String {
			return nil, &PolicyError{Member: fmt.Sprintf("grants[%d]", i), Msg: "must be a string, got " + item.Kind().Noun()}
		}
		perm, err := ParsePermission(item.Str())
		if err != nil {
			return nil, &PolicyError{Member: fmt.Sprintf("grants[%d]", i), Msg: err.Error()}
		}
		p.Grant(perm)
	}
	if nv, ok := doc.Get("note"); ok {
		if nv.Kind() != pyjson.String {
			return nil, &PolicyError{Member: "note", Msg: "must be a string, got " + nv.Kind().Noun()}
		}
		p.Note = nv.Str()
	}
	return p, nil
}

// Unreadable returns the policy of a workspace whose policy file exists but
// could not be read or parsed, for the reason err: it fails closed, refusing
// every capability that declares permissions (see Check). Err returns err.
func Unreadable(err error) *Policy {
	if err == nil {
		err = errors.New("unknown error")
	}
	return &Policy{err: err}
}

// FromFile turns the two results of reading a workspace's policy file (as
// os.ReadFile returns them) into the policy to check against, so a caller
// has no error to forget: a file that does not exist (readErr wraps
// fs.ErrNotExist) gives nil, which grants everything; any other read error,
// or a file ParsePolicy refuses, gives Unreadable, which fails closed.
// Err tells the caller what to report.
func FromFile(data []byte, readErr error) *Policy {
	if errors.Is(readErr, fs.ErrNotExist) {
		return nil
	}
	if readErr != nil {
		return Unreadable(readErr)
	}
	p, err := ParsePolicy(data)
	if err != nil {
		return Unreadable(err)
	}
	return p
}

// Err returns why the policy file could not be read or parsed, or nil (also
// for a nil policy).
func (p *Policy) Err() error {
	if p == nil {
		return nil
	}
	return p.err
}

// AppendJSON appends the policy file's canonical bytes to dst: version,
// grants in order without duplicates, and note when not empty, indented as
// Python's json.dumps(indent=2) would, with a final newline. ParsePolicy
// reads them back to an equal policy. A nil or unreadable policy has no
// file: AppendJSON returns dst unchanged (check Err before writing).
func (p *Policy) AppendJSON(dst []byte) []byte {
	if p == nil || p.err != nil {
		return dst
	}
	return append(pyjson.AppendIndent(dst, p.value()), '\n')
}

// value is the policy file's document: version, grants in order without
// duplicates, and note when not empty.
func (p *Policy) value() pyjson.Value {
	grants := make([]pyjson.Value, 0, len(p.Grants))
	seen := map[Permission]bool{}
	for _, g := range p.Grants {
		if !seen[g] {
			seen[g] = true
			grants = append(grants, pyjson.StringValue(g.String()))
		}
	}
	members := []pyjson.Member{
		{Key: "version", Value: pyjson.IntValue(Version)},
		{Key: "grants", Value: pyjson.ArrayValue(grants)},
	}
	if p.Note != "" {
		members = append(members, pyjson.Member{Key: "note", Value: pyjson.StringValue(p.Note)})
	}
	return pyjson.ObjectValue(members)
}

// Grant adds the permissions the policy does not already hold, in order,
// and reports whether it added any. Granting twice changes nothing the
// second time. A wider grant does not absorb a narrower one: Grant adds
// "fs:read:./src" next to "fs:read:*". An unreadable policy stays
// unreadable: Grant changes nothing and returns false. p must not be nil.
func (p *Policy) Grant(perms ...Permission) (changed bool) {
	if p.err != nil {
		return false
	}
	for _, perm := range perms {
		if !slices.Contains(p.Grants, perm) {
			p.Grants = append(p.Grants, perm)
			changed = true
		}
	}
	return changed
}

// Revoke removes the grants equal to any of perms and reports whether it
// removed any. It removes whole grants only: revoking "fs:read:./src" leaves
// "fs:read:*", which still covers it. An unreadable policy stays
// unreadable: Revoke changes nothing and returns false. p must not be nil.
func (p *Policy) Revoke(perms ...Permission) (changed bool) {
	if p.err != nil {
		return false
	}
	kept := p.Grants[:0]
	for _, g := range p.Grants {
		if slices.Contains(perms, g) {
			changed = true
			continue
		}
		kept = append(kept, g)
	}
	clear(p.Grants[len(kept):])
	p.Grants = kept
	return changed
}
