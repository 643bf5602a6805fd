package policy

import (
	"errors"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Status is what status says of the policy in force: the operator's file
// f when there is one, else the workspace's policy p.
func Status(f *File, p *Policy) pyjson.Value {
	if f != nil {
		return pyjson.Obj(pyjson.KV("set", true), pyjson.KV("file", f.Path), pyjson.KV("locked", true), pyjson.KV("grants", len(f.Policy.Grants)),
			pyjson.KV("note", "the policy is the operator's file: ucs policy grant, revoke, set and clear are refused"))
	}
	switch {
	case p == nil:
		return pyjson.Obj(pyjson.KV("set", false), pyjson.KV("note", "no policy: every capability is granted"))
	case p.Err() != nil:
		return pyjson.Obj(pyjson.KV("set", true), pyjson.KV("error", p.Err().Error()),
			pyjson.KV("note", "the policy cannot be read: every capability that declares permissions is refused"))
	}
	return pyjson.Obj(pyjson.KV("set", true), pyjson.KV("grants", len(p.Grants)))
}

// CheckMember is check's judgment of the state file's policy member, raw.
func CheckMember(raw []byte) error {
	if !gjson.ValidBytes(raw) {
		return errors.New("not valid JSON")
	}
	_, err := ParsePolicy(raw)
	return err
}
