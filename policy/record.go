package policy

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// Recorded is a call's event input (null or an object) with what the
// call's decisions rested on, which a replay reads back: the operator's
// policy file it used (FileMember: File.Record; used is nil when it used
// none), and DefaultMember when a capability was left out for declaring
// no permission. The members are sorted, as the journal keeps an input.
// With neither, it is the input as it is.
func Recorded(in pyjson.Value, used *File, deniedByDefault bool) pyjson.Value {
	if used == nil && !deniedByDefault {
		return in
	}
	if in.Kind() != pyjson.Object {
		in = pyjson.Obj()
	}
	if used != nil {
		in = in.With(FileMember, used.Record())
	}
	if deniedByDefault {
		in = in.With(DefaultMember, "deny")
	}
	return pyjson.SortKeys(in)
}
