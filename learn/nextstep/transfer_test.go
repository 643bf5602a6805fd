package nextstep

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The states a key names, counted from its end: a task id may hold the
// separator.
func TestKeyStates(t *testing.T) {
	for _, c := range []struct {
		key    string
		states []string
		counts bool
		bad    bool
	}{
		{key: keyAll(), states: []string{}, counts: true},
		{key: keyPrev("grep"), states: []string{"grep"}, counts: true},
		{key: keyPrev2("grep!", "read"), states: []string{"grep!", "read"}, counts: true},
		{key: keyTask("=a"+sep+"b", "read"), states: []string{"read"}, counts: true},
		{key: keyTask2("=t", "", "read"), states: []string{"", "read"}, counts: true},
		{key: keyTerm("parser", "read"), states: []string{"read"}, counts: true},
		{key: key("s", "1", ""), states: []string{""}},
		{key: key("s", "w", "parser", "read"), states: []string{"read"}},
		{key: key("s", "1", "a", "b"), bad: true},
		{key: key("c", "T", "t", "a"), bad: true},
		{key: "x", bad: true},
	} {
		states, counts, err := keyStates(c.key)
		if c.bad {
			assert.Error(t, err, "%q", c.key)
			continue
		}
		require.NoError(t, err, "%q", c.key)
		assert.Equal(t, c.states, states, "%q", c.key)
		assert.Equal(t, c.counts, counts, "%q", c.key)
	}
}

// Pooling sums the counts as they are worth now, at mine's update; a
// belief both hold is combined by precision: the information of both, the
// prior's counted once (here 2 + 2 − 1: a variance of 1/3).
func TestPoolRecord(t *testing.T) {
	p := DefaultParams
	for _, c := range []struct {
		name, key, mine, theirs, want string
	}{
		{"counts, theirs only", keyAll(), "", `{"m":2,"n":2,"t":5,"to":{"a":[2,1,2,1,3]},"u":3}`,
			`{"m":2,"n":2,"t":5,"to":{"a":[2,1,2,1,3]},"u":3}`},
		{"counts summed", keyAll(), `{"m":1,"n":1,"t":1,"to":{"a":[1,0,1,0,1]},"u":1}`,
			`{"m":2,"n":2,"t":5,"to":{"a":[2,1,2,1,3],"b":[0,1,0,1,3]},"u":3}`,
			`{"m":3,"n":3,"t":1,"to":{"a":[3,1,3,1,1],"b":[0,1,0,1,1]},"u":1}`},
		{"theirs faded", keyAll(), `{"m":0,"n":0,"t":0,"to":{},"u":0}`,
			`{"m":1,"n":0.99,"t":1,"to":{"a":[1,0,1,0,1]},"u":2}`,
			`{"m":1,"n":0.99,"t":0,"to":{"a":[0.99,0,1,0,0]},"u":0}`},
		{"weights, theirs only", key("s", "w", "x", ""), "", `{"a":[0.5,0.2,7,3]}`, `{"a":[0.5,0.2,4,3]}`},
		{"weights by precision", key("s", "w", "x", ""), `{"a":[1,0.5,1,1]}`, `{"a":[0,0.5,9,1]}`, `{"a":[0.5,0.3333333333333333,4,2]}`},
	} {
		var mine []byte
		if c.mine != "" {
			mine = []byte(c.mine)
		}
		got, err := PoolRecord(p, c.key, mine, []byte(c.theirs), 1, Globals{Clock: 4})
		require.NoError(t, err, c.name)
		assert.JSONEq(t, c.want, string(got), c.name)
	}
}

// A record of another manifest keeps the capabilities the target has.
func TestProjectRecord(t *testing.T) {
	has := func(s string) bool { return s == "a" || s == "read" }
	out, unknown, err := ProjectRecord(keyPrev("grep!"), []byte(`{"m":0,"n":0,"t":0,"to":{},"u":0}`), has)
	require.NoError(t, err)
	assert.Nil(t, out)
	assert.Equal(t, []string{"grep"}, unknown)
	out, unknown, err = ProjectRecord(keyPrev("read"), []byte(`{"m":3,"n":3,"t":0,"to":{"a":[1,0,1,0,0],"b":[2,0,2,0,0]},"u":0}`), has)
	require.NoError(t, err)
	assert.JSONEq(t, `{"m":1,"n":1,"t":0,"to":{"a":[1,0,1,0,0]},"u":0}`, string(out))
	assert.Equal(t, []string{"b"}, unknown)
}
