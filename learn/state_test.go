package learn

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The states of testdata/ were written by earlier versions of ucs (the
// "learn" member of a v3 and a v4 workspace's state file): they decode,
// and encode back to the same bytes, so a call that changes nothing
// rewrites them as they were.
func TestStateGolden(t *testing.T) {
	for _, tc := range []struct {
		file       string
		p          Params
		keepsTrail bool
	}{
		{"testdata/state-v3.json", V3Params, false},
		{"testdata/state-v4.json", DefaultParams, true},
	} {
		raw, err := os.ReadFile(tc.file)
		require.NoError(t, err)
		s, err := DecodeState(raw, tc.p)
		require.NoError(t, err, tc.file)
		assert.Equal(t, tc.keepsTrail, s.KeepsTrail(), tc.file)
		assert.Equal(t, string(raw), string(s.AppendJSON(nil)), tc.file)
	}
}

func TestNewStateJSON(t *testing.T) {
	const model = `"model":{"buckets":16384,"clock":0,"weights":"","pairs":[]}`
	assert.Equal(t, `{"advisories":[],"followed":[0.0,0.0],`+model+`,"not_followed":[0.0,0.0]}`,
		string(NewState(New(V3Params)).AppendJSON(nil)), "v3 keeps no trail")
	assert.Equal(t, `{"advisories":[],"followed":[0.0,0.0],`+model+`,"not_followed":[0.0,0.0],"trail":["","",[]]}`,
		string(NewState(New(DefaultParams)).AppendJSON(nil)))
}

// A state with advisories (with and without observations), tallies and a
// trail comes back the same.
func TestStateRoundTrip(t *testing.T) {
	g, man := toyGraph(t)
	s := NewState(New(DefaultParams))
	s.Remember(Advisory{ID: "a1", Cursor: "read", Top: "edit", Seq: 3, Terms: []string{"fix", "pars"}})
	s.Remember(Advisory{ID: "a2", Cursor: "edit", Top: "test", Seq: 5, Terms: nil, Observations: []string{"o1", "o\"2"}})
	s.Followed.Add(0.5, 1.5)
	s.NotFollowed.Add(1, 0.25)
	s.Learn(g, man, []string{"fix"}, "read", "edit", "success", 1, 1)
	data := s.AppendJSON(nil)
	back, err := DecodeState(data, DefaultParams)
	require.NoError(t, err)
	assert.Equal(t, string(data), string(back.AppendJSON(nil)))
	assert.Equal(t, s.Followed, back.Followed)
	assert.Equal(t, s.NotFollowed, back.NotFollowed)
	assert.Equal(t, Trail{Prev: "read", At: "edit", Terms: []string{"fix"}}, back.Trail)
	assert.Equal(t, []string{"o1", "o\"2"}, back.Advisories[1].Observations)
	assert.Nil(t, back.Advisories[0].Observations)
}

func TestDecodeStateRefuses(t *testing.T) {
	const model = `"model":{"clock":0,"weights":""}`
	const ok = `"followed":[0,0],"not_followed":[0,0]`
	for _, tc := range []struct {
		raw, err string
	}{
		{`{`, "learn: not valid JSON"},
		{`{"followed":[0,0],"not_followed":[0,0]}`, "learn: not valid JSON"}, // no model
		{`{"model":[],"followed":[0,0],"not_followed":[0,0]}`, "learn: not an object"},
		{`{` + model + `,"trail":["a","b"],` + ok + `}`, "learn.trail: want [prev, at, [terms]]"},
		{`{` + model + `,"trail":["a","b",[1]],` + ok + `}`, "learn.trail: a term is not a string"},
		{`{` + model + `,"trail":["","",[]],"followed":[2,1],"not_followed":[0,0]}`, "learn.followed: want [successes, outcomes]"},
		{`{` + model + `,"trail":["","",[]],"followed":[0,0],"not_followed":[-1,0]}`, "learn.not_followed: want [successes, outcomes]"},
		{`{` + model + `,"trail":["","",[]],` + ok + `,"advisories":[["a","b","c",1]]}`, "learn.advisories: want [id, cursor, top, seq, [terms], [observations]?]"},
		{`{` + model + `,"trail":["","",[]],` + ok + `,"advisories":[["a","b","c",1,[],"x"]]}`, "learn.advisories: want [id, cursor, top, seq, [terms], [observations]?]"},
		{`{` + model + `,"trail":["","",[]],` + ok + `,"advisories":[` + repeat(`["a","b","c",1,[]]`, AdvisoriesKept+1) + `]}`, "learn.advisories: too many"},
	} {
		_, err := DecodeState([]byte(tc.raw), DefaultParams)
		assert.EqualError(t, err, tc.err, tc.raw)
	}
	// v3 keeps no trail, so it needs none.
	_, err := DecodeState([]byte(`{`+model+`,`+ok+`}`), V3Params)
	assert.NoError(t, err)
	_, err = DecodeState([]byte(`{`+model+`,`+ok+`}`), DefaultParams)
	assert.EqualError(t, err, "learn.trail: want [prev, at, [terms]]")
}

func repeat(item string, n int) string {
	out := item
	for range n - 1 {
		out += "," + item
	}
	return out
}

func FuzzDecodeState(f *testing.F) {
	for _, file := range []string{"testdata/state-v3.json", "testdata/state-v4.json"} {
		raw, err := os.ReadFile(file)
		require.NoError(f, err)
		f.Add(raw)
	}
	f.Add([]byte(`{"advisories":[["a","b","c",1,[],["o"]]],"followed":[0,0],"model":{"clock":0,"weights":""},"not_followed":[0,0],"trail":["","",[]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range []Params{V3Params, DefaultParams} {
			s, err := DecodeState(data, p)
			if err != nil {
				continue
			}
			enc := s.AppendJSON(nil)
			again, err := DecodeState(enc, p)
			require.NoError(t, err)
			require.Equal(t, string(enc), string(again.AppendJSON(nil)))
		}
	})
}

// Context conditions on where the agent came from only for a model that
// keeps the trail, and only while the agent is where its last move left
// it.
func TestStateContext(t *testing.T) {
	g, man := toyGraph(t)
	terms := []string{"fix"}
	v4, v3 := NewState(New(DefaultParams)), NewState(New(V3Params))
	for _, s := range []*State{v4, v3} {
		s.Learn(g, man, terms, "read", "edit", "success", 1, 1)
	}
	assert.Equal(t, Context{Terms: terms, After: "read"}, v4.Context("edit", terms))
	assert.Equal(t, Context{Terms: terms}, v4.Context("test", terms), "elsewhere")
	assert.Equal(t, Context{Terms: terms}, v3.Context("edit", terms))
	assert.Equal(t, Trail{}, v3.Trail, "v3 follows no trail")
}

// Chain follows the greedy best step after the suggestion, twice, and
// stops where there is none.
func TestChain(t *testing.T) {
	g, man := toyGraph(t)
	s := NewState(New(DefaultParams))
	ctx := []string{"fix"}
	for i := range 4 {
		s.Learn(g, man, ctx, "edit", "test", "success", 1, int64(i))
		s.Learn(g, man, ctx, "test", "read", "success", 1, int64(i))
	}
	assert.Equal(t, []string{"edit", "test", "read"}, s.Chain(g, man, ctx, "read", "edit"))
	lone, loneMan := graphOf(t, `{"capabilities": [{"name": "a", "connects_to": ["b"]}, {"name": "b", "connects_to": []}], "semantic_map": {}}`)
	assert.Equal(t, []string{"b"}, s.Chain(lone, loneMan, ctx, "a", "b"), "b leads nowhere")
}

// Relearn gives the state that learning the reports one by one gives, and
// counts those that taught something.
func TestRelearn(t *testing.T) {
	g, man := toyGraph(t)
	reports := []Report{
		{From: "read", To: "edit", Success: "success", Weight: 1, Context: "fix the parser", Clock: 2},
		{From: "edit", To: "test", Success: "failure", Weight: 0.5, Context: "fix the parser", Clock: 3},
		{From: "test", To: "test", Success: "neutral", Weight: 1},
		{From: "test", To: "read", Success: "partial", Weight: 1, Context: "", Clock: 0},
	}
	want := NewState(New(DefaultParams))
	for _, r := range reports {
		want.Learn(g, man, Terms(r.Context), r.From, r.To, r.Success, r.Weight, r.Clock)
	}
	got, learned := Relearn(g, man, DefaultParams, reports)
	assert.Equal(t, 3, learned)
	assert.Equal(t, string(want.AppendJSON(nil)), string(got.AppendJSON(nil)))
}
