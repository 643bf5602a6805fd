package policy

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The state member's bytes are those workspaces already hold: the policy's
// document on one line, as json.dumps writes it. They must not change.
func TestStateAppendJSON(t *testing.T) {
	cases := []struct {
		name  string
		state *State
		want  string
		keep  bool
	}{
		{"no policy", &State{}, "", false},
		{"unreadable", &State{Policy: Unreadable(errors.New("e"))}, "", false},
		{"empty", &State{Policy: New()}, `{"version": 1, "grants": []}`, true},
		{"grants", &State{Policy: New(perms("fs:read:*", "net:http:get")...)}, `{"version": 1, "grants": ["fs:read:*", "net:http:get"]}`, true},
		{"note", &State{Policy: &Policy{Grants: perms("msg:send:#ops", "fs:read:café"), Note: "by \"ops\"\nfor CI"}},
			`{"version": 1, "grants": ["msg:send:#ops", "fs:read:café"], "note": "by \"ops\"\nfor CI"}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, keep := tc.state.AppendJSON([]byte("prefix:"))
			assert.Equal(t, tc.keep, keep)
			assert.Equal(t, "prefix:"+tc.want, string(got))
			if !keep {
				return
			}
			back := DecodeState(got[len("prefix:"):])
			require.NoError(t, back.Policy.Err())
			again, _ := back.AppendJSON(nil)
			assert.Equal(t, tc.want, string(again), "the member reads back to the same bytes")
		})
	}
}

func TestDecodeState(t *testing.T) {
	assert.Nil(t, DecodeState(nil).Policy, "no member: no policy, everything granted")
	assert.Error(t, DecodeState([]byte(`{"version": 2}`)).Policy.Err(), "a member that cannot be parsed fails closed")
}
