package policy

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// A State is a workspace's policy as the workspace's state file keeps it,
// in a member of its own: the member changes only by a journaled call, so
// a replay of the journal gives the same policy.
type State struct {
	// Policy is the policy in force: nil for none, which grants
	// everything; an Unreadable one for a member that cannot be parsed,
	// which fails closed.
	Policy *Policy
}

// DecodeState reads the state file's policy member: raw is its bytes, nil
// when the state has none.
func DecodeState(raw []byte) *State {
	st := &State{}
	if raw != nil {
		st.Policy = FromFile(raw, nil)
	}
	return st
}

// AppendJSON appends the member's value: the policy file's document on one
// line, as json.dumps writes it (the state file is not for people to edit,
// so it is not indented as Policy.AppendJSON's file is). It reports false,
// and appends nothing, when the state keeps no member: no policy, or one
// that cannot be read (a call that decoded it drops it).
func (st *State) AppendJSON(dst []byte) ([]byte, bool) {
	if st.Policy == nil || st.Policy.err != nil {
		return dst, false
	}
	return pyjson.AppendDumps(dst, st.Policy.value()), true
}
