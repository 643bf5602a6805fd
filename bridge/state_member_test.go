package bridge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bookstore"
)

// A member the call did not decode is written back byte for byte as read,
// in the state file's order, whatever its spelling; one it decoded is
// written as its encoder writes it, or left out when empty.
func TestStateMembersWriteBackAsRead(t *testing.T) {
	raws := map[string]string{
		importsMember:    `["b" ,"a"]`,
		goalsMember:      `{ "closed": [], "numbered": 3, "open": [] }`,
		bookstore.Member: `{"sha256": "00", "count": 0}`,
		policyMember:     `{"grants":["fs:read:*"],"version":1}`,
	}
	read := func() *stateMembers {
		st := &stateMembers{}
		for _, m := range st.all() {
			if raw, ok := raws[m.key()]; ok {
				m.read([]byte(raw))
			}
		}
		return st
	}
	write := func(st *stateMembers) string {
		out := []byte(`{"t": 1}`)
		for _, m := range st.all() {
			out = m.appendTo(out)
		}
		return string(out)
	}
	st := read()
	assert.Equal(t, `{"t": 1,"goals":`+raws[goalsMember]+`,"permissions":`+raws[policyMember]+
		`,"observations":`+raws[bookstore.Member]+`,"imports":`+raws[importsMember]+`}`, write(st))

	s := &session{}
	st = read()
	gb, err := st.goals.get(s)
	require.NoError(t, err)
	assert.Equal(t, int64(3), gb.Numbered)
	ps, err := st.policy.get(s)
	require.NoError(t, err)
	require.NotNil(t, ps.Policy)
	assert.Equal(t, `{"t": 1,"goals":{"closed": [], "numbered": 3, "open": []},"permissions":{"version": 1, "grants": ["fs:read:*"]}`+
		`,"observations":`+raws[bookstore.Member]+`,"imports":`+raws[importsMember]+`}`, write(st), "decoded members are encoded")

	ps.Policy = nil
	gb.Numbered = 0
	assert.Equal(t, `{"t": 1,"observations":`+raws[bookstore.Member]+`,"imports":`+raws[importsMember]+`}`, write(st),
		"an empty member is left out")
	assert.Equal(t, `{"t": 1}`, write(&stateMembers{}), "a state without members stays as it is")
}

// A member that cannot be decoded is a corrupt workspace, every time the
// call asks, and is still written back as read.
func TestStateMemberDecodeError(t *testing.T) {
	st := &stateMembers{}
	st.goals.read([]byte(`{"numbered": 0}`))
	for range 2 {
		_, err := st.goals.get(&session{})
		require.Error(t, err)
	}
	assert.Equal(t, `{"t": 1,"goals":{"numbered": 0}}`, string(st.goals.appendTo([]byte(`{"t": 1}`))))
}
