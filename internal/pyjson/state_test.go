package pyjson

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// statePath is a 124 KB state file written by the Python program with
// json.dump(state, f, indent=2, ensure_ascii=False).
const statePath = "../../testdata/reference-v2/init-state.json"

func readState(tb testing.TB) []byte {
	tb.Helper()
	data, err := os.ReadFile(statePath)
	require.NoError(tb, err)
	return data
}

// TestStateFileRoundTrip: Indent(Parse(file)) reproduces the file byte for
// byte. The file does not end with a newline: json.dump writes none, and the
// Python program adds none.
func TestStateFileRoundTrip(t *testing.T) {
	data := readState(t)
	require.NotEmpty(t, data)
	assert.NotEqual(t, byte('\n'), data[len(data)-1], "json.dump writes no trailing newline")
	v, err := Parse(data)
	require.NoError(t, err)
	out := Indent(v)
	require.True(t, bytes.Equal(data, out), "Indent(Parse(state)) differs from the file")

	// The canonical form reparses to itself.
	c := Canonical(v)
	v2, err := Parse(c)
	require.NoError(t, err)
	assert.Equal(t, c, Canonical(v2))

	// Spot checks of kinds: "t": 200 is an int, the field samples are floats.
	st, ok := v.Get("state")
	require.True(t, ok)
	tv, ok := st.Get("t")
	require.True(t, ok)
	assert.Equal(t, Int, tv.Kind())
	fields, ok := st.Get("fields")
	require.True(t, ok)
	energy, ok := fields.Get("energy")
	require.True(t, ok)
	require.Equal(t, Array, energy.Kind())
	assert.Equal(t, Float, energy.Items()[0].Kind())
}

func BenchmarkParseState(b *testing.B) {
	data := readState(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIndentState(b *testing.B) {
	v, err := Parse(readState(b))
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		Indent(v)
	}
}

func BenchmarkAppendIndentStateReuse(b *testing.B) {
	v, err := Parse(readState(b))
	require.NoError(b, err)
	buf := Indent(v)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendIndent(buf[:0], v)
	}
}

func BenchmarkCanonicalState(b *testing.B) {
	v, err := Parse(readState(b))
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		Canonical(v)
	}
}
