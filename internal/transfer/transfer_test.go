package transfer

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

func parse(t testing.TB, s string) pyjson.Value {
	t.Helper()
	v, err := pyjson.Parse([]byte(s))
	require.NoError(t, err)
	return v
}

// A package's digest is its content's: when and by which request it was
// exported do not change it; anything else does.
func TestDigest(t *testing.T) {
	base := Digest(parse(t, `{"format":"f","a":1}`))
	assert.Equal(t, base, Digest(parse(t, `{"format":"f","exported_at":"x","a":1,"request_id":"r"}`)))
	assert.NotEqual(t, base, Digest(parse(t, `{"format":"f","a":2}`)))
}

// The imports member remembers a digest once and the latest ImportsKept.
func TestRemember(t *testing.T) {
	raw, seen := Remember(nil, "a")
	assert.False(t, seen)
	assert.Equal(t, `["a"]`, string(raw))
	again, seen := Remember(raw, "a")
	assert.True(t, seen)
	assert.Equal(t, raw, again)
	assert.True(t, Seen(raw, "a"))
	assert.False(t, Seen(raw, "b"))
	assert.False(t, Seen([]byte("not json"), "a"))
	for i := range ImportsKept {
		raw, _ = Remember(raw, strconv.Itoa(i))
	}
	assert.False(t, Seen(raw, "a"), "the oldest is forgotten")
	assert.True(t, Seen(raw, strconv.Itoa(ImportsKept-1)))
}

func TestMarkdownBlocks(t *testing.T) {
	for _, tc := range []struct {
		have, text string
		want       []string
	}{
		{"", "# T\n\nx\n\n", []string{"# T", "x"}},
		{"# T\n\nx\n", "# T\n\nx\n\ny", []string{"y"}},
		{"", "a\n\na\n\n", []string{"a"}},
		{"", "\n\n  \n\n", nil},
	} {
		assert.Equal(t, tc.want, markdownBlocks([]byte(tc.have), tc.text), "%q into %q", tc.text, tc.have)
	}
}

// New entries are those whose id the workspace lacks, each once; one
// without an id gets one.
func TestNewEntries(t *testing.T) {
	existing := []pyjson.Value{parse(t, `{"id":"a"}`)}
	got := newEntries(existing, parse(t, `[{"id":"a"},{"id":"b"},{"id":"b"},{"x":1}]`),
		func(pyjson.Value) string { return "gen" })
	require.Len(t, got, 2)
	assert.Equal(t, "b", got[0].StrOf("id"))
	assert.Equal(t, `{"x":1,"id":"gen"}`, string(pyjson.AppendCompact(nil, got[1])))
}

// Shared edges take the mean weight within ±2.5; an edge to a capability
// the workspace lacks is counted; an edge without a finite w is refused.
func TestBlendEdges(t *testing.T) {
	edges := []torusfield.Edge{{Src: "a", Dst: "b", W: 1}, {Src: "b", Dst: "a", W: 2}, {Src: "a", Dst: "c", W: 0.5}}
	has := func(c string) bool { return c != "z" }
	blended, dropped, err := blendEdges(parse(t, `{"edges":[{"src":"a","dst":"b","w":3},{"src":"b","dst":"a","w":9},
		{"src":"a","dst":"c","w":0.501},{"src":"a","dst":"z","w":1}]}`), edges, has)
	require.NoError(t, err)
	assert.Equal(t, [2]int{2, 1}, [2]int{blended, dropped})
	assert.Equal(t, []float64{2, 2.5, 0.5005}, []float64{edges[0].W, edges[1].W, edges[2].W})
	_, _, err = blendEdges(parse(t, `{"edges":[{"src":"a","dst":"b","w":"x"}]}`), edges, has)
	assert.Equal(t, fault.CodeWrongType, fault.AsError(err).Code)
}

func TestCheckFormat(t *testing.T) {
	assert.NoError(t, CheckFormat(pyjson.From("ucs_cognitive_export_v1")))
	assert.Equal(t, fault.CodeInvalidValue, fault.AsError(CheckFormat(pyjson.From("tar"))).Code)
}

func kinds(version string) (*learn.Params, bool) {
	switch version {
	case "v4":
		return &learn.DefaultParams, false
	case "v5":
		return nil, true
	}
	return nil, false
}

// ReadModel refuses anything export does not write with invalid_value,
// and never panics (the member is input).
func FuzzReadModel(f *testing.F) {
	for _, s := range []string{
		`{"version":"v9","manifest":"x","capabilities":[]}`,
		`{"version":"v5","manifest":"x","capabilities":["a"],"state":{},"records":{}}`,
		`{"version":"v4","manifest":"x","capabilities":[],"state":{"model":{}}}`,
		`{"version":"v4","manifest":"x","capabilities":[],"state":{},"records":{}}`,
		`[]`, `{"version":""}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := pyjson.Parse(data)
		if err != nil {
			return
		}
		mp, err := ReadModel(x, kinds)
		if err != nil {
			e := fault.AsError(err)
			require.NotNil(t, e)
			assert.Equal(t, fault.CodeInvalidValue, e.Code)
			return
		}
		assert.NotEmpty(t, mp.Version)
		assert.NotEmpty(t, mp.Digest)
	})
}
