package advice

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
)

// A state whose learn member repeats a key reads as the full parser
// (pyjson) reads it, the last member winning, so the state the model
// decodes is the one `ucs check` and an export see.
func TestDecodeStepsDuplicateKeyAgreesWithPyjson(t *testing.T) {
	v := NewSteps()
	v.Generation = 3
	v.TaskEpisode("", "fix the login bug")
	v.Remember(learn.Advisory{ID: "ab", Cursor: "search", Top: "edit", Seq: 2})
	raw := string(v.AppendJSON(nil))
	dup := strings.TrimSuffix(raw, "}") +
		`,"located":"edit","generation":9,"followed":[2,5],"not_followed":[1,1],"globals":[0.5,4,6],"advisories":[]}`

	full, err := pyjson.Parse([]byte(dup))
	require.NoError(t, err)
	got, err := DecodeSteps([]byte(dup))
	require.NoError(t, err)

	assert.Equal(t, full.StrOf("located"), got.Located)
	gen, _ := full.Get("generation")
	n, _ := gen.Float()
	assert.Equal(t, int64(n), got.Generation)
	assert.Equal(t, learn.Tally{Successes: 2, Outcomes: 5}, got.Followed)
	assert.Equal(t, learn.Tally{Successes: 1, Outcomes: 1}, got.Unfollowed)
	assert.Equal(t, 0.5, got.Globals.Beta)
	assert.Equal(t, int64(4), got.Globals.Clock)
	assert.Empty(t, got.Advisories)

	// Read back, the state is the last members' alone.
	again, err := DecodeSteps(got.AppendJSON(nil))
	require.NoError(t, err)
	assert.Equal(t, string(got.AppendJSON(nil)), string(again.AppendJSON(nil)))
}

// Whatever the learn member holds, decoding it never panics, and a state
// it accepts has the top-level members the full parser (pyjson) reads, and
// reads back to the same bytes.
func FuzzDecodeSteps(f *testing.F) {
	v := NewSteps()
	v.TaskEpisode("", "fix the login bug")
	raw := v.AppendJSON(nil)
	f.Add(raw)
	f.Add([]byte(strings.TrimSuffix(string(raw), "}") + `,"located":"x","generation":2,"followed":[0,1]}`))
	f.Add([]byte(`{"located":"a","located":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := DecodeSteps(data)
		if err != nil {
			return
		}
		enc := got.AppendJSON(nil)
		again, err := DecodeSteps(enc)
		require.NoError(t, err)
		assert.Equal(t, string(enc), string(again.AppendJSON(nil)))
		full, err := pyjson.Parse(data)
		if err != nil {
			return // JSON gjson accepts and Python's parser does not
		}
		assert.Equal(t, full.StrOf("located"), got.Located)
		g, _ := full.Get("generation")
		n, _ := g.Float()
		assert.Equal(t, n, float64(got.Generation))
		for _, k := range []struct {
			key  string
			want learn.Tally
		}{{"followed", got.Followed}, {"not_followed", got.Unfollowed}} {
			tv, _ := full.Get(k.key)
			items := tv.Items()
			require.Len(t, items, 2, k.key)
			s, _ := items[0].Float()
			o, _ := items[1].Float()
			assert.Equal(t, learn.Tally{Successes: s, Outcomes: o}, k.want, k.key)
		}
	})
}
