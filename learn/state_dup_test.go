package learn

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A learned state whose members are repeated (a state file that was
// tampered with, or written by a broken tool) reads as the state file's
// parser (pyjson) reads it: the last of a repeated key counts, at the
// state's level and at its model's. A quick reader taking the first would
// learn from another state than the one every other reader sees.
func TestDecodeStateRepeatedKeyAsTheStateParser(t *testing.T) {
	g, man := toyGraph(t)
	taught := NewState(New(DefaultParams))
	taught.Followed.Add(1, 2)
	taught.Learn(g, man, []string{"fix"}, "read", "edit", "success", 1, 1)
	want := taught.AppendJSON(nil)
	other := NewState(New(DefaultParams)).AppendJSON(nil)

	// Every member of the other state first, then the taught state's.
	dup := append(append([]byte{}, other[:len(other)-1]...), ',')
	dup = append(dup, want[1:]...)
	parsed, err := pyjson.Parse(dup)
	require.NoError(t, err)
	require.Equal(t, string(want), string(pyjson.AppendCompact(nil, parsed)), "pyjson keeps the last of each member")

	got, err := DecodeState(dup, DefaultParams)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got.AppendJSON(nil)))

	// The same inside the model member: a first clock that is not the last.
	model, _ := parsed.Get("model")
	modelJSON := pyjson.AppendCompact(nil, model)
	dupModel := append([]byte(`{"clock":987654,`), modelJSON[1:]...)
	m, err := Decode(dupModel, DefaultParams)
	require.NoError(t, err)
	assert.Equal(t, taught.Model.Clock, m.Clock)
}
