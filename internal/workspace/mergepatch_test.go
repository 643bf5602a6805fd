package workspace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RFC 7386's own examples (its appendix A), and what this implementation
// adds: canonical bytes (members sorted, names escaped one way, the last
// of a repeated name), numbers as written.
func TestMergePatch(t *testing.T) {
	for _, tc := range []struct{ target, patch, want string }{
		// Appendix A.
		{`{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"b"}`, `{"b":"c"}`, `{"a":"b","b":"c"}`},
		{`{"a":"b"}`, `{"a":null}`, `{}`},
		{`{"a":"b","b":"c"}`, `{"a":null}`, `{"b":"c"}`},
		{`{"a":["b"]}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"c"}`, `{"a":["b"]}`, `{"a":["b"]}`},
		{`{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`, `{"a":{"b":"d"}}`},
		{`{"a":[{"b":"c"}]}`, `{"a":[1]}`, `{"a":[1]}`},
		{`["a","b"]`, `["c","d"]`, `["c","d"]`},
		{`{"a":"b"}`, `["c"]`, `["c"]`},
		{`{"a":"foo"}`, `null`, `null`},
		{`{"a":"foo"}`, `"bar"`, `"bar"`},
		{`{"e":null}`, `{"a":1}`, `{"a":1,"e":null}`},
		{`[1,2]`, `{"a":"b","c":null}`, `{"a":"b"}`},
		{`{}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}}}`},
		// No value (an absent key), and values that are not objects.
		{``, `{"a":1,"b":null}`, `{"a":1}`},
		{`null`, `{"a":{"b":null,"c":{}}}`, `{"a":{"c":{}}}`},
		{`7`, `{}`, `{}`},
		// Canonical: sorted by the decoded name, escaped as the log's keys.
		{`{"z":1,"b":2}`, `{"m":3}`, `{"b":2,"m":3,"z":1}`},
		{`{"\u0061":1}`, `{"a":2}`, `{"a":2}`},
		{`{"\u00e9\u001f":1}`, `{"\/":2}`, `{"/":2,"é\u001f":1}`},
		{`{"a":1,"a":2}`, `{"b":0}`, `{"a":2,"b":0}`},
		{`{"a":1}`, `{"b":1,"b":null}`, `{"a":1}`},
		// Leaves as written, untouched members too; only objects a patch
		// reaches are rewritten.
		{`{"n":1.000000000000000000001,"o":{"y":1,"x":2}}`, `{"m":1e400}`, `{"m":1e400,"n":1.000000000000000000001,"o":{"y":1,"x":2}}`},
		{`{"o":{"y":1,"x":2}}`, `{"o":{"w":-0.0}}`, `{"o":{"w":-0.0,"x":2,"y":1}}`},
		{`{"s":"\u00e9"}`, `{"t":"\ud83d\ude00"}`, `{"s":"\u00e9","t":"\ud83d\ude00"}`},
	} {
		t.Run(tc.target+" "+tc.patch, func(t *testing.T) {
			var target []byte
			if tc.target != "" {
				target = []byte(tc.target)
			}
			assert.Equal(t, tc.want, string(mergePatch(target, []byte(tc.patch))))
		})
	}
}

// Two patches compose into one that does what they do in turn, except
// where the second merges an object into a member the first removed or
// set to what is not an object.
func TestComposePatches(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{`{"a":1}`, `{"b":2}`, `{"a":1,"b":2}`},
		{`{"a":1}`, `{"a":null}`, `{"a":null}`},
		{`{"a":null}`, `{"a":1}`, `{"a":1}`},
		{`{"a":{"x":1,"y":null}}`, `{"a":{"y":2,"z":null}}`, `{"a":{"x":1,"y":2,"z":null}}`},
		{`{"a":{"x":1}}`, `{"a":[1]}`, `{"a":[1]}`},
		{`{}`, `{"a":{"b":{}}}`, `{"a":{"b":{}}}`},
		{`{"a":null}`, `{"a":{"x":1}}`, ""},
		{`{"a":5}`, `{"a":{"x":1}}`, ""},
		{`{"a":{"b":null}}`, `{"a":{"b":{"c":1}}}`, ""},
	} {
		t.Run(tc.a+" "+tc.b, func(t *testing.T) {
			got, ok := composePatches([]byte(tc.a), []byte(tc.b))
			if tc.want == "" {
				assert.False(t, ok, "%s", got)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tc.want, string(got))
		})
	}
}

// randomJSON is a small JSON value over few member names, so that patches
// meet the members of targets, at every depth.
func randomJSON(r *rand.Rand, depth int, patch bool) string {
	switch n := r.IntN(10); {
	case n < 4 && depth < 4:
		var ms []string
		for range r.IntN(4) {
			ms = append(ms, fmt.Sprintf(`"%c":%s`, 'a'+r.IntN(4), randomJSON(r, depth+1, patch)))
		}
		return "{" + strings.Join(ms, ",") + "}"
	case n < 5 && (patch || depth > 0):
		return "null"
	case n < 6:
		return fmt.Sprintf("[%d]", r.IntN(3))
	case n < 8:
		return fmt.Sprintf("%d.%d", r.IntN(5), r.IntN(10))
	}
	return fmt.Sprintf(`"%c"`, 'p'+r.IntN(3))
}

// rfcMerge is RFC 7386's pseudocode on decoded values, for comparison.
func rfcMerge(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	out := map[string]any{}
	for k, v := range t {
		out[k] = v
	}
	for k, v := range p {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = rfcMerge(out[k], v)
		}
	}
	return out
}

func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	require.NoError(t, d.Decode(&v), "%s", b)
	return v
}

// The merge agrees with RFC 7386's pseudocode on random values, and a
// composed patch with applying its two parts.
func TestMergePatchRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		target := []byte(randomJSON(r, 0, false))
		p1, p2 := []byte(randomJSON(r, 3, true)), []byte(randomJSON(r, 3, true))
		if !isJSONObject(p1) || !isJSONObject(p2) {
			continue
		}
		got := mergePatch(target, p1)
		require.Equal(t, rfcMerge(decodeJSON(t, target), decodeJSON(t, p1)), decodeJSON(t, got), "%s + %s", target, p1)
		require.True(t, json.Valid(got))
		if both, ok := composePatches(p1, p2); ok {
			require.Equal(t, string(mergePatch(got, p2)), string(mergePatch(target, both)), "%s + %s + %s", target, p1, p2)
		}
	}
}

// A merge of a large record costs one pass over it.
func BenchmarkMergePatch(b *testing.B) {
	var ms []string
	for i := range 40 {
		ms = append(ms, fmt.Sprintf(`"tool_%02d":{"n":%d,"ok":%d,"last":"2026-11-27T10:00:00Z"}`, i, i*7, i*5))
	}
	target := []byte("{" + strings.Join(ms, ",") + "}")
	patch := []byte(`{"tool_17":{"n":120,"ok":99}}`)
	b.SetBytes(int64(len(target)))
	for b.Loop() {
		mergePatch(target, patch)
	}
}

// The merge never panics, whatever the bytes; on values SetRecords takes
// it agrees with RFC 7386's pseudocode, and what it makes SetRecords
// takes again, unchanged (compact, canonical, readable by the log).
func FuzzMergePatch(f *testing.F) {
	f.Add([]byte(`{"a":{"b":"c"},"z":[1]}`), []byte(`{"a":{"b":"d","c":null}}`))
	f.Add([]byte(`[1,2]`), []byte(`{"a":"b","c":null}`))
	f.Add([]byte(`{"\u0061":1,"a":2}`), []byte(`{"b":{"\ud800":1.50}}`))
	f.Add([]byte(`null`), []byte(`{"x":{"y":{}}}`))
	f.Fuzz(func(t *testing.T, target, patch []byte) {
		mergePatch(target, patch)
		composePatches(target, patch)
		tv, err1 := normalizeValue("k", target)
		pv, err2 := normalizeValue("k", patch)
		if err1 != nil || err2 != nil || !isJSONObject(pv) {
			return
		}
		got := mergePatch(tv, pv)
		again, err := normalizeValue("k", got)
		require.NoError(t, err, "%s", got)
		require.Equal(t, string(got), string(again))
		require.Equal(t, rfcMerge(decodeJSON(t, tv), decodeJSON(t, pv)), decodeJSON(t, got))
		require.Equal(t, string(got), string(mergePatch(got, []byte("{}"))), "not canonical")
	})
}
