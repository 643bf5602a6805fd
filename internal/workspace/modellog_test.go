package workspace

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The model log's lines, byte for byte: keys JSON-escaped (control
// characters such as the unit separator included, UTF-8 as it is, no HTML
// escaping), values as given, null for a deletion.
func TestModelLineFormat(t *testing.T) {
	for _, tc := range []struct {
		name string
		seq  int64
		recs []Record
		want string
	}{
		{"empty set", 7, nil, `{"seq":7,"set":[]}`},
		{"one", 2, []Record{{Key: "1\x1fread_file", Value: []byte(`{"edit":3}`)}}, `{"seq":2,"set":[["1\u001fread_file",{"edit":3}]]}`},
		{"escapes", 3, []Record{{Key: "", Value: []byte("1")}, {Key: "<é>\n\t\r", Value: []byte(`"x"`)}, {Key: "a\"b\\c", Value: []byte("null")}},
			`{"seq":3,"set":[["",1],["<é>\n\t\r","x"],["a\"b\\c",null]]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := appendModelLine(nil, tc.seq, tc.recs)
			assert.Equal(t, tc.want, string(line))
			seq, recs, err := parseModelLine(line)
			require.NoError(t, err)
			assert.Equal(t, tc.seq, seq)
			if len(tc.recs) == 0 {
				assert.Empty(t, recs)
			} else {
				assert.Equal(t, tc.recs, recs)
			}
		})
	}
}

// What is not a line of the model log is an error, never a guess.
func TestModelLineRefused(t *testing.T) {
	for _, line := range []string{
		``, `null`, `[]`, `{}`, `{"seq":1}`, `{"set":[],"seq":1}`, `{"seq":1,"set":[],"x":1}`,
		`{"seq":0,"set":[]}`, `{"seq":-1,"set":[]}`, `{"seq":1.5,"set":[]}`, `{"seq":"1","set":[]}`,
		`{"seq":1,"set":{}}`, `{"seq":1,"set":[1]}`, `{"seq":1,"set":[["a"]]}`, `{"seq":1,"set":[["a",1,2]]}`,
		`{"seq":1,"set":[[1,1]]}`, `{"seq":1,"set":[["b",1],["a",1]]}`, `{"seq":1,"set":[["a",1],["a",2]]}`,
		`{"seq":1,"set":[["a",1]]`, "{\"seq\":1,\"set\":[[\"a\xff\",1]]}", `{"seq":1,"set":[["a",tru]]}`,
	} {
		_, _, err := parseModelLine([]byte(line))
		assert.Error(t, err, "%q", line)
	}
	// Whitespace is JSON's to allow; the value comes back compact.
	_, recs, err := parseModelLine([]byte(`{ "seq" : 1 , "set" : [ [ "a" , { "b" : [ 1 , "c d" ] } ] ] }`))
	require.NoError(t, err)
	assert.Equal(t, []Record{{Key: "a", Value: []byte(`{"b":[1,"c d"]}`)}}, recs)
}

// A line with merges: "set" left out when it is empty, "merge" when it
// is; each array sorted, no key in both, every merge an object.
func TestModelLineMerges(t *testing.T) {
	m := func(k, v string) Record { return Record{Key: k, Value: []byte(v), Merge: true} }
	for _, tc := range []struct {
		name string
		recs []Record
		want string
	}{
		{"merges alone", []Record{m("a", `{"x":1}`), m("b\x1f", `{}`)}, `{"seq":5,"merge":[["a",{"x":1}],["b\u001f",{}]]}`},
		{"both", []Record{{Key: "a", Value: []byte(`[1]`)}, m("b", `{"t":{"u":null}}`), {Key: "c", Value: []byte("null")}},
			`{"seq":5,"set":[["a",[1]],["c",null]],"merge":[["b",{"t":{"u":null}}]]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := appendModelLine(nil, 5, tc.recs)
			assert.Equal(t, tc.want, string(line))
			seq, recs, err := parseModelLine(line)
			require.NoError(t, err)
			assert.Equal(t, int64(5), seq)
			var sets, merges []Record
			for _, r := range tc.recs {
				if r.Merge {
					merges = append(merges, r)
				} else {
					sets = append(sets, r)
				}
			}
			assert.Equal(t, append(sets, merges...), recs, "the sets, then the merges")
		})
	}
	for _, line := range []string{
		`{"seq":1,"merge":[]}`, `{"seq":1,"set":[],"merge":[["a",{}]]}`, `{"seq":1,"set":[["a",1]],"merge":[]}`,
		`{"seq":1,"merge":[["a",1]]}`, `{"seq":1,"merge":[["a",[]]]}`, `{"seq":1,"merge":[["a",null]]}`,
		`{"seq":1,"merge":[["b",{}],["a",{}]]}`, `{"seq":1,"merge":[["a",{}],["a",{}]]}`,
		`{"seq":1,"set":[["a",1]],"merge":[["a",{}]]}`, `{"seq":1,"set":[["a",1],["c",1]],"merge":[["b",{}],["c",{}]]}`,
		`{"seq":1,"merge":[["a",{}]],"set":[["b",1]]}`, `{"seq":1,"merge":[["a",{}]],"merge":[["b",{}]]}`,
		`{"seq":1,"set":[["a",1]],"set":[["b",1]]}`, `{"seq":1,"merge":[["a",{}]],}`, `{"seq":1,"merge":[["a",{"b":}]]}`,
		// Numbers the workspace's JSON reader (which check uses) refuses.
		`{"seq":1,"set":[["a",1e400]]}`, `{"seq":1,"merge":[["a",{"b":12345678901234567890}]]}`,
	} {
		_, _, err := parseModelLine([]byte(line))
		assert.Error(t, err, "%q", line)
	}
	_, recs, err := parseModelLine([]byte(`{ "seq" : 1 , "merge" : [ [ "a" , { "b" : [ 1 , "c d" ] } ] ] }`))
	require.NoError(t, err)
	assert.Equal(t, []Record{m("a", `{"b":[1,"c d"]}`)}, recs)
}

// The line reader never panics, and a line it accepts is written back as
// the same records.
func FuzzModelLogLine(f *testing.F) {
	f.Add([]byte(`{"seq":2,"set":[["1\u001fread_file",{"edit":3}],["b",null]]}`))
	f.Add([]byte(`{"seq":3,"set":[["",1],["<é>\n\t\r","x"],["a\"b\\c",null]]}`))
	f.Add([]byte(`{"seq":1,"set":[["\ud800",1]]}`))
	f.Add([]byte(`{"seq":1,"set":[["\ud83d\ude00\u00e9\/",1],["\ud83dx",-0.5e+3]]}`))
	f.Add([]byte(`{"seq":1,"set":[[" a",[1, {"x" : 2}]]]}`))
	f.Add([]byte(`{"seq":4,"merge":[["a",{"x":{"y":null}}],["b",{}]]}`))
	f.Add([]byte(`{"seq":4,"set":[["a",1],["c",null]],"merge":[["b",{"t":1.5e3}]]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		seq, recs, err := parseModelLine(line)
		if err != nil {
			return
		}
		require.True(t, json.Valid(line), "accepted what is not JSON")
		for _, r := range recs {
			var b bytes.Buffer
			require.NoError(t, json.Compact(&b, r.Value))
			require.Equal(t, b.String(), string(r.Value), "a value not compact")
		}
		var v struct {
			Seq   int64
			Set   [][2]json.RawMessage
			Merge [][2]json.RawMessage
		}
		require.NoError(t, json.Unmarshal(line, &v))
		require.Equal(t, seq, v.Seq)
		require.Len(t, recs, len(v.Set)+len(v.Merge))
		seen := map[string]bool{}
		for i, pair := range append(v.Set, v.Merge...) {
			var k string
			require.NoError(t, json.Unmarshal(pair[0], &k))
			require.Equal(t, k, recs[i].Key, "the key as encoding/json reads it")
			require.Equal(t, i >= len(v.Set), recs[i].Merge)
			require.False(t, seen[k], "a key twice in a line: %q", k)
			seen[k] = true
			if recs[i].Merge {
				var patch map[string]json.RawMessage
				require.NoError(t, json.Unmarshal(pair[1], &patch), "a merge that is not an object")
				require.NotNil(t, patch)
			}
		}
		again, recs2, err := parseModelLine(appendModelLine(nil, seq, recs))
		require.NoError(t, err)
		assert.Equal(t, seq, again)
		assert.Equal(t, recs, recs2)
	})
}
