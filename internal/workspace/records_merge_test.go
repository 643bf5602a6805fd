package workspace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// canonicalJSON is RFC 7386's pseudocode (rfcMerge) and encoding/json's
// bytes, for a value held as its canonical text: members sorted, compact,
// numbers as written (the test's strings escape nothing).
func canonicalJSON(t testing.TB, v any) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	require.NoError(t, e.Encode(v))
	return strings.TrimSuffix(b.String(), "\n")
}

func decodeNumbers(t testing.TB, b []byte) any {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	require.NoError(t, d.Decode(&v), "%s", b)
	return v
}

// randomTools is an object of a few of ten tools' counts, sorted.
func randomTools(r *rand.Rand) string {
	var ms []string
	for i := range 10 {
		if r.IntN(3) == 0 {
			ms = append(ms, fmt.Sprintf(`"t%d":%d`, i, r.IntN(50)))
		}
	}
	return "{" + strings.Join(ms, ",") + "}"
}

// randomWhole is a value to set, canonical: an object with its members
// sorted, now and then a deletion or a value that is not an object.
func randomWhole(r *rand.Rand) []byte {
	switch r.IntN(12) {
	case 0:
		return nil
	case 1:
		return []byte("[1,2]")
	}
	return fmt.Appendf(nil, `{"edit":%d,"note":"%s","read":%d,"tools":%s}`, r.IntN(100), strings.Repeat("x", r.IntN(20)), r.IntN(1000), randomTools(r))
}

// randomPatch changes a few members, in no particular order: counts of
// tools (some removed), numbers that float64 would change, a member
// removed or made what is not an object (after which a merge into it in
// the same transaction cannot be composed).
func randomPatch(r *rand.Rand) []byte {
	cands := []string{
		fmt.Sprintf(`"tools":{"t%d":%d,"t%d":null}`, r.IntN(10), r.IntN(50), r.IntN(10)),
		fmt.Sprintf(`"edit":%d.50`, r.IntN(9)),
		`"read":1.00000000000000000001e300`,
		`"note":null`,
		`"tools":null`,
		`"tools":5`,
		fmt.Sprintf(`"new":{"deep":{"n":%d}}`, r.IntN(3)),
	}
	r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	n := 1 + r.IntN(3)
	if r.IntN(3) > 0 {
		n = 1
		cands[0] = cands[r.IntN(2)] // mostly a tool's count or "edit"
		if strings.HasPrefix(cands[0], `"edit"`) && r.IntN(2) == 0 {
			cands[0] = fmt.Sprintf(`"tools":{"t%d":%d}`, r.IntN(10), r.IntN(50))
		}
	}
	return []byte("{" + strings.Join(cands[:n], ",") + "}")
}

// With merges among the sets, the records read back are those of a map
// that applies RFC 7386's pseudocode to decoded values, byte for byte:
// across segment builds and merges, without the index, with a damaged
// segment. Keys often get several records in one transaction.
func TestRecordsMatchModelWithMerges(t *testing.T) {
	testRecordsMatchModel(t, rand.New(rand.NewPCG(7, 8)), func(r *rand.Rand, keys []string) Record {
		k := keys[r.IntN(len(keys))]
		if r.IntN(3) == 0 {
			k = keys[r.IntN(12)]
		}
		if r.IntN(4) == 0 {
			return Record{Key: k, Value: randomWhole(r)}
		}
		return Record{Key: k, Value: randomPatch(r), Merge: true}
	}, func(model map[string]string, rec Record) {
		switch {
		case !rec.Merge && rec.Value == nil:
			delete(model, rec.Key)
		case !rec.Merge:
			model[rec.Key] = string(rec.Value)
		default:
			var below any
			if v, ok := model[rec.Key]; ok {
				below = decodeNumbers(t, []byte(v))
			}
			model[rec.Key] = canonicalJSON(t, rfcMerge(below, decodeNumbers(t, rec.Value)))
		}
	})
}

// A transaction's records for a key become one set or one merge: a set
// then merges is the set merged; merges then a set is the set; merges are
// one patch; merges no patch can combine are the committed value merged,
// as a set. A merge that is not an object is refused, with nothing of its
// call queued.
func TestSetRecordsCombine(t *testing.T) {
	l := newRecordWorkspace(t)
	setRecords(t, l, []Record{
		{Key: "composed", Value: []byte(`{"keep":1,"t":{"a":1}}`)},
		{Key: "fallback", Value: []byte(`{"keep":1,"t":{"a":1}}`)},
		{Key: "replaced", Value: []byte(`{"keep":1}`)},
	})
	m := func(k, v string) Record { return Record{Key: k, Value: []byte(v), Merge: true} }
	tx, err := l.Begin(true)
	require.NoError(t, err)
	require.NoError(t, tx.SetRecords([]Record{
		{Key: "set", Value: []byte(`{"b":1}`)}, m("set", `{"a":2}`), m("set", `{"b":null}`),
		m("composed", `{"t":{"b":2}}`), m("composed", `{"t":{"a":null},"u":3}`),
		m("fallback", `{"t":null}`),
		m("replaced", `{"x":1}`), {Key: "replaced", Value: []byte(`[3]`)},
		m("absent", `{"x":{"y":null,"z":1}}`),
	}))
	require.NoError(t, tx.SetRecords([]Record{m("fallback", `{"t":{"b":2}}`)}))
	for _, bad := range [][]Record{
		{m("x", `[1]`)}, {m("x", `1`)}, {m("x", `null`)}, {{Key: "x", Merge: true}}, {m("set", `{"a":9}`), m("y", `"no"`)},
	} {
		require.Error(t, tx.SetRecords(bad), "%q", bad)
	}
	_, err = tx.Commit(event("test", tx.Meta.Seq), testState)
	require.NoError(t, err)
	tx.Close()
	lines := strings.Split(strings.TrimSpace(string(readOrEmpty(t, l, RelModelLog))), "\n")
	require.Len(t, lines, 2)
	assert.Equal(t, `{"seq":3,"set":[["fallback",{"keep":1,"t":{"b":2}}],["replaced",[3]],["set",{"a":2}]],`+
		`"merge":[["absent",{"x":{"y":null,"z":1}}],["composed",{"t":{"a":null,"b":2},"u":3}]]}`, lines[1])
	want := map[string]string{
		"absent":   `{"x":{"z":1}}`,
		"composed": `{"keep":1,"t":{"b":2},"u":3}`,
		"fallback": `{"keep":1,"t":{"b":2}}`,
		"replaced": `[3]`,
		"set":      `{"a":2}`,
	}
	keys := []string{"absent", "composed", "fallback", "replaced", "set", "x", "y"}
	assert.Equal(t, want, lookupAll(t, l, false, keys))
	assert.Equal(t, want, scanAll(t, l))
	checkOK(t, l)
}

// Merges after a segment apply to the segment's value, and a segment
// written from merges holds the whole value: lookups agree before and
// after the index grows, and after it is deleted.
func TestRecordMergesOverSegments(t *testing.T) {
	l := newRecordWorkspace(t)
	setRecords(t, l, []Record{{Key: "k", Value: []byte(`{"n":0,"tools":{}}`)}})
	want := `{"n":0,"tools":{}}`
	for i := range 3 * recTailLines {
		setRecords(t, l, []Record{{Key: "k", Value: fmt.Appendf(nil, `{"tools":{"t%d":%d}}`, i%5, i), Merge: true}})
		got := lookupAll(t, l, i%2 == 0, []string{"k"})["k"]
		assert.NotEqual(t, want, got, "after merge %d", i)
		want = got
	}
	assert.Equal(t, `{"n":0,"tools":{"t0":20,"t1":21,"t2":22,"t3":23,"t4":19}}`, want)
	files := recordFiles(t, l)
	require.NotEmpty(t, files)
	seg, err := openRecSegment(l.path(RelRecordsDir + "/" + files[0]))
	require.NoError(t, err)
	v, ok, err := seg.lookup("k")
	v = bytes.Clone(v)
	seg.close()
	require.NoError(t, err)
	require.True(t, ok)
	assert.True(t, json.Valid(v))
	assert.NotContains(t, string(v), "null", "a segment's value is whole")
	require.NoError(t, os.RemoveAll(l.path(RelRecordsDir)))
	assert.Equal(t, want, lookupAll(t, l, false, []string{"k"})["k"])
	checkOK(t, l)
}

// A value nested deeper than the log's reader reads, or that the
// workspace's JSON reader refuses (a number out of its range, a lone
// surrogate escape), is refused: it would have made a line check cannot
// read.
func TestSetRecordsTooDeep(t *testing.T) {
	l := newRecordWorkspace(t)
	tx, err := l.Begin(true)
	require.NoError(t, err)
	defer tx.Close()
	deep := strings.Repeat("[", 600) + strings.Repeat("]", 600)
	require.Error(t, tx.SetRecords([]Record{{Key: "k", Value: []byte(deep)}}))
	require.Error(t, tx.SetRecords([]Record{{Key: "k", Value: []byte(`{"a":` + deep + `}`), Merge: true}}))
	for _, n := range []string{`1e400`, `-1.8e308`, `12345678901234567890`, `[1,{"a":-9223372036854775809}]`,
		`"\ud800"`, `"\udc00"`, `{"\ud83dx":1}`, `"\ud83d\u0041"`, `"\ud83d\ud83d"`, `"a\ud83d"`} {
		require.Error(t, tx.SetRecords([]Record{{Key: "k", Value: []byte(n)}}), n)
	}
	require.NoError(t, tx.SetRecords([]Record{{Key: "k", Value: []byte(`[1e-400,9223372036854775807,1.00000000000000000001e300,"\ud83d\ude00\u00e9"]`)}}))
	ok := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	require.NoError(t, tx.SetRecords([]Record{{Key: "deep", Value: []byte(ok)}}))
	_, err = tx.Commit(event("test", tx.Meta.Seq), testState)
	require.NoError(t, err)
	tx.Close()
	checkOK(t, l)
}

// A segment found damaged while the tail's merges are applied to its
// value, as the index grows, is dropped: the lines it covered are read
// from the log, the index is written again, and the value is right.
func TestRecordMergeOverDamagedSegment(t *testing.T) {
	l := newRecordWorkspace(t)
	setRecords(t, l, []Record{{Key: "k", Value: []byte(`{"base":"UNIQUE-VALUE","n":0}`)}, {Key: "other", Value: []byte("1")}})
	for i := range recTailLines {
		setRecords(t, l, []Record{{Key: recordKey(i), Value: []byte("true")}})
	}
	lookupAll(t, l, true, []string{"k"}) // a segment holds k
	files := recordFiles(t, l)
	require.Len(t, files, 1)
	for i := range recTailLines + 1 { // a tail the next writer makes a segment of
		setRecords(t, l, []Record{{Key: "k", Value: fmt.Appendf(nil, `{"n":%d}`, i+1), Merge: true}})
	}
	path := l.path(RelRecordsDir + "/" + files[0])
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	at := bytes.Index(data, []byte("UNIQUE"))
	require.Positive(t, at)
	data[at] ^= 0x20
	require.NoError(t, os.WriteFile(path, data, FilePerm))

	want := map[string]string{"k": `{"base":"UNIQUE-VALUE","n":9}`, "other": "1"}
	assert.Equal(t, want, lookupAll(t, l, true, []string{"other", "k"}))
	assert.Equal(t, want, lookupAll(t, l, false, []string{"k", "other"}))
	assert.NotContains(t, recordFiles(t, l), files[0], "the damaged segment was replaced")
	for i := range recTailLines {
		want[recordKey(i)] = "true"
	}
	assert.Equal(t, want, scanAll(t, l))
	checkOK(t, l)
}
