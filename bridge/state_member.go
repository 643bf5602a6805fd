package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/bookstore"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// A stateMember is one member of the state file after the engine's (and
// the learning model's, which the model decodes: advice.Member): read as
// its bytes when the call opens the workspace, decoded only when the call
// needs it, and written back byte for byte as read unless the call
// decoded it, so a call leaves what it does not use as it was. Each is
// present only when it holds something, so a workspace that never used
// one keeps the reference's bytes.
type stateMember interface {
	// key is the member's name in the state file.
	key() string
	// read keeps the member's bytes as the state file holds them.
	read(raw []byte)
	// appendTo adds the member to an encoded state file (an object whose
	// last byte is its closing brace): nothing when the state has no
	// member and the call decoded none, or the decoded value is empty.
	appendTo(state []byte) []byte
}

// A codec is what a member[T, C] is: its key, and how its value T is made
// from the member's bytes and written back. Its types are empty structs:
// a member needs no setting up, and its zero value is a member the state
// does not hold.
type codec[T any] interface {
	key() string
	// decode makes the value from the member's bytes (nil: the state has
	// no member).
	decode(s *session, raw []byte) (T, error)
	// encode appends the decoded value v, whose bytes as last read or set
	// are raw; false leaves the member out (the value is empty).
	encode(dst []byte, v T, raw []byte) ([]byte, bool)
}

// A member is a stateMember whose decoded form is a T.
type member[T any, C codec[T]] struct {
	raw     []byte // as read (nil: absent), or as the call set it
	val     T
	decoded bool
}

func (m *member[T, C]) key() string     { var c C; return c.key() }
func (m *member[T, C]) read(raw []byte) { m.raw = raw }

// get returns the member's value, decoding it on first use. A member that
// cannot be decoded is not kept decoded: the call's next get tries again
// and fails the same.
func (m *member[T, C]) get(s *session) (T, error) {
	if !m.decoded {
		var c C
		v, err := c.decode(s, m.raw)
		if err != nil {
			return v, err
		}
		m.val, m.decoded = v, true
	}
	return m.val, nil
}

func (m *member[T, C]) appendTo(state []byte) []byte {
	if !m.decoded && m.raw == nil {
		return state
	}
	var c C
	body := state[:len(state)-1]
	n := len(body)
	body = append(body, `,"`+c.key()+`":`...)
	if m.decoded {
		var ok bool
		if body, ok = c.encode(body, m.val, m.raw); !ok {
			body = body[:n]
		}
	} else {
		body = append(body, m.raw...)
	}
	return append(body, '}')
}

// stateMembers are the state file's members after the engine's and the
// learning model's, in the order the state file holds them. The learning
// model's member stays apart (session.learning): the model decides
// what it decodes to and writes one even when the state has none
// (advice.Memory.AppendMember).
type stateMembers struct {
	// goals are the workspace's goals (package goal).
	goals member[*goal.Book, goalsCodec]
	// policy is the workspace's policy (package policy).
	policy member[*policy.State, policyCodec]
	// observations is the state's reference to the observation book,
	// which lives in a file of its own (observations.go).
	observations member[*belief.Book, observationsCodec]
	// imports are the digests of the packages imported (package transfer),
	// which the call reads and sets as bytes.
	imports member[struct{}, importsCodec]
}

// all returns the members in the state file's order.
func (st *stateMembers) all() [4]stateMember {
	return [...]stateMember{&st.goals, &st.policy, &st.observations, &st.imports}
}

// The state file's members after the engine's.
const (
	goalsMember  = goal.Member
	policyMember = policy.StateMember
)

type goalsCodec struct{}

func (goalsCodec) key() string { return goalsMember }

func (goalsCodec) decode(_ *session, raw []byte) (*goal.Book, error) {
	if raw == nil {
		return &goal.Book{}, nil
	}
	gb, err := goal.Decode(raw)
	if err != nil {
		return nil, fault.Corrupt(err, workspace.RelState)
	}
	return gb, nil
}

func (goalsCodec) encode(dst []byte, gb *goal.Book, _ []byte) ([]byte, bool) {
	if gb.Empty() {
		return dst, false
	}
	return gb.AppendJSON(dst), true
}

type policyCodec struct{}

func (policyCodec) key() string { return policyMember }

func (policyCodec) decode(_ *session, raw []byte) (*policy.State, error) {
	return policy.DecodeState(raw), nil
}

func (policyCodec) encode(dst []byte, ps *policy.State, _ []byte) ([]byte, bool) {
	return ps.AppendJSON(dst)
}

// observationsCodec decodes the book from the file the member names; the
// member is written as prepareBook last set it (the book's file is
// written before the commit, not in the state).
type observationsCodec struct{}

func (observationsCodec) key() string { return bookstore.Member }

func (observationsCodec) decode(s *session, raw []byte) (*belief.Book, error) {
	return bookstore.Load(s.ws.ReadFile, raw)
}

func (observationsCodec) encode(dst []byte, _ *belief.Book, raw []byte) ([]byte, bool) {
	return append(dst, raw...), raw != nil
}

// importsCodec keeps the member as bytes: the call that imports parses
// and sets them itself.
type importsCodec struct{}

func (importsCodec) key() string { return importsMember }

func (importsCodec) decode(*session, []byte) (struct{}, error) { return struct{}{}, nil }

func (importsCodec) encode(dst []byte, _ struct{}, raw []byte) ([]byte, bool) {
	return append(dst, raw...), raw != nil
}
