package workspace

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace/workspacetest"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// newRecordWorkspace is newTestWorkspace without fsyncs (NoSync): the
// record tests commit thousands of times.
func newRecordWorkspace(t testing.TB) *Workspace {
	t.Helper()
	l := New(filepath.Join(t.TempDir(), "ws"), Options{NoSync: true})
	tx, err := l.Create(false, testNow)
	require.NoError(t, err)
	defer tx.Close()
	tx.Meta.Model, tx.Meta.AgentID = LegacyModel, "test"
	tx.Pin(torusfield.DefaultManifestJSON(), torusfield.DefaultManifest())
	tx.Add(RelPPHistory, pyjson.Obj(pyjson.KV("t", 0)))
	_, err = tx.Commit(event("init", 0), testState)
	require.NoError(t, err)
	return l
}

// setRecords commits records in a transaction of their own (exclusive: it
// may grow the index when it reads).
func setRecords(t testing.TB, l *Workspace, recs []Record) {
	t.Helper()
	tx, err := l.Begin(true)
	require.NoError(t, err)
	defer tx.Close()
	require.NoError(t, tx.SetRecords(recs))
	_, err = tx.Commit(event("test", tx.Meta.Seq), testState)
	require.NoError(t, err)
}

// lookupAll reads every key of the model in one transaction and returns
// what it found, absent keys left out.
func lookupAll(t testing.TB, l *Workspace, exclusive bool, keys []string) map[string]string {
	t.Helper()
	tx, err := l.Begin(exclusive)
	require.NoError(t, err)
	defer tx.Close()
	got := map[string]string{}
	for _, k := range keys {
		v, err := tx.Record(k)
		require.NoError(t, err)
		if v != nil {
			got[k] = string(v)
		}
	}
	return got
}

// scanAll is Records in a transaction of its own.
func scanAll(t testing.TB, l *Workspace) map[string]string {
	t.Helper()
	tx, err := l.Begin(false)
	require.NoError(t, err)
	defer tx.Close()
	got := map[string]string{}
	var last string
	require.NoError(t, tx.Records(func(k string, v []byte) bool {
		require.True(t, len(got) == 0 || k > last, "key order: %q after %q", k, last)
		last, got[k] = k, string(v)
		return true
	}))
	return got
}

func recordFiles(t testing.TB, l *Workspace) []string {
	entries, _ := os.ReadDir(l.path(RelRecordsDir))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// A workspace that never set a record keeps its state bytes: the meta
// names no model log, reads of records cost no file, and a commit with
// records names it.
func TestNoRecordsKeepsStateBytes(t *testing.T) {
	l := newTestWorkspace(t)
	commit(t, l, map[string][]pyjson.Value{RelActionLog: {pyjson.Obj(pyjson.KV("action", "read"))}})
	state, err := os.ReadFile(l.path(RelState))
	require.NoError(t, err)
	files := gjson.GetBytes(state, "ucs.files")
	var names []string
	files.ForEach(func(k, _ gjson.Result) bool { names = append(names, k.Str); return true })
	assert.Equal(t, []string{"action_log", "methodology", "dead_ends", "judgment_nodes", "annotations", "policy_overrides", "pp_history"}, names)
	assert.False(t, l.Exists(RelModelLog))

	tx, err := l.Begin(false)
	require.NoError(t, err)
	v, err := tx.Record("anything")
	require.NoError(t, err)
	assert.Nil(t, v)
	tx.Close()
	assert.False(t, l.Exists(RelRecordsDir), "a read of a workspace without records writes nothing")

	// A transaction that sets nothing appends no line.
	tx, err = l.Begin(true)
	require.NoError(t, err)
	require.NoError(t, tx.SetRecords(nil))
	_, err = tx.Commit(event("test", tx.Meta.Seq), testState)
	require.NoError(t, err)
	tx.Close()
	assert.False(t, l.Exists(RelModelLog))

	setRecords(t, l, []Record{{Key: "k", Value: []byte(`{"a":1}`)}})
	state, err = os.ReadFile(l.path(RelState))
	require.NoError(t, err)
	assert.Equal(t, int64(1), gjson.GetBytes(state, "ucs.files.model.lines").Int())
	assert.Equal(t, `{"seq":4,"set":[["k",{"a":1}]]}`+"\n", string(readOrEmpty(t, l, RelModelLog)))
	checkOK(t, l)
}

func readOrEmpty(t testing.TB, l *Workspace, rel string) []byte {
	b, err := os.ReadFile(l.path(rel))
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	return b
}

// Several SetRecords in a transaction make one line, the last value of a
// key kept, keys sorted; null and nil delete; a value is stored compact;
// what is not JSON, or a key that is not UTF-8, is refused whole.
func TestSetRecordsMerge(t *testing.T) {
	l := newRecordWorkspace(t)
	setRecords(t, l, []Record{{Key: "b", Value: []byte("1")}, {Key: "gone", Value: []byte("true")}})
	tx, err := l.Begin(true)
	require.NoError(t, err)
	require.NoError(t, tx.SetRecords([]Record{{Key: "z", Value: []byte(`{ "x" : [1, 2] }`)}, {Key: "a", Value: []byte(`"first"`)}}))
	require.NoError(t, tx.SetRecords([]Record{{Key: "a", Value: []byte(`"second"`)}, {Key: "gone", Value: nil}, {Key: "b", Value: []byte("null")}}))
	require.Error(t, tx.SetRecords([]Record{{Key: "c", Value: []byte("{")}}))
	require.Error(t, tx.SetRecords([]Record{{Key: "c", Value: []byte("1")}, {Key: "bad\xff", Value: []byte("1")}}))
	v, err := tx.Record("a")
	require.NoError(t, err)
	assert.Nil(t, v, "not committed yet")
	_, err = tx.Commit(event("test", tx.Meta.Seq), testState)
	require.NoError(t, err)
	got, err := tx.Record("a")
	require.NoError(t, err)
	assert.Equal(t, `"second"`, string(got), "read after the commit, in the same transaction")
	tx.Close()
	lines := strings.Split(strings.TrimSpace(string(readOrEmpty(t, l, RelModelLog))), "\n")
	require.Len(t, lines, 2)
	assert.Equal(t, `{"seq":3,"set":[["a","second"],["b",null],["gone",null],["z",{"x":[1,2]}]]}`, lines[1])
	assert.Equal(t, map[string]string{"a": `"second"`, "z": `{"x":[1,2]}`}, lookupAll(t, l, false, []string{"a", "b", "c", "gone", "z"}))
	assert.Equal(t, map[string]string{"a": `"second"`, "z": `{"x":[1,2]}`}, scanAll(t, l))
	checkOK(t, l)
}

// recordKey is one of a pool of keys, some with the characters JSON
// escapes.
func recordKey(i int) string {
	switch i % 7 {
	case 0:
		return fmt.Sprintf("%d\x1fread_file", i)
	case 1:
		return fmt.Sprintf("ctx \"%d\"\\", i)
	case 2:
		return fmt.Sprintf("é%d\n\t", i)
	}
	return fmt.Sprintf("%d\x1fk", i)
}

func randomValue(r *rand.Rand) []byte {
	if r.IntN(10) == 0 {
		return nil // a deletion
	}
	return fmt.Appendf(nil, `{"edit":%d,"read":%d,"note":"%s"}`, r.IntN(100), r.IntN(1000), strings.Repeat("x", r.IntN(40)))
}

// The records read back are those of a map kept beside them, whatever the
// index's state: across thousands of commits and the merges of its
// segments, for a reader that may not write it and one that grows it,
// without it, with a damaged segment and with a stale one.
func TestRecordsMatchModel(t *testing.T) {
	testRecordsMatchModel(t, rand.New(rand.NewPCG(1, 2)), func(r *rand.Rand, keys []string) Record {
		k := keys[r.IntN(len(keys))]
		v := randomValue(r)
		return Record{Key: k, Value: v}
	}, func(model map[string]string, rec Record) { // the last value of a key wins
		if rec.Value == nil {
			delete(model, rec.Key)
		} else {
			model[rec.Key] = string(rec.Value)
		}
	})
}

// testRecordsMatchModel commits records from next, applies each to a map
// with apply, and requires the records read back to be the map's, byte for
// byte, through the index's states (see TestRecordsMatchModel).
func testRecordsMatchModel(t *testing.T, r *rand.Rand, next func(*rand.Rand, []string) Record, apply func(map[string]string, Record)) {
	l := newRecordWorkspace(t)
	model := map[string]string{}
	var keys []string
	for i := range 400 {
		keys = append(keys, recordKey(i))
	}
	agree := func(what string) {
		t.Helper()
		require.Equal(t, model, lookupAll(t, l, false, keys), "read-only, %s", what)
		require.Equal(t, model, lookupAll(t, l, true, keys), "exclusive, %s", what)
		require.Equal(t, model, scanAll(t, l), "scan, %s", what)
	}
	commits := func(n int) {
		for c := range n {
			var recs []Record
			for range 1 + r.IntN(30) {
				recs = append(recs, next(r, keys))
			}
			setRecords(t, l, recs)
			for _, rec := range recs {
				apply(model, rec)
			}
			if c%97 == 0 {
				agree(fmt.Sprintf("commit %d", c))
			}
		}
	}
	commits(2000)
	agree("after 2000 commits")
	files := recordFiles(t, l)
	require.NotEmpty(t, files)
	assert.LessOrEqual(t, len(files), 8, "merged: %v", files)
	assert.True(t, strings.HasPrefix(files[0], "0-"), "%v", files)
	checkOK(t, l)

	// Without the index: the same answers, and the next writer rebuilds it.
	require.NoError(t, os.RemoveAll(l.path(RelRecordsDir)))
	require.Equal(t, model, lookupAll(t, l, false, keys))
	assert.False(t, l.Exists(RelRecordsDir), "a read-only transaction writes no index")
	agree("index deleted")
	require.NotEmpty(t, recordFiles(t, l))

	// A damaged segment (each of a few bytes changed in turn) is read
	// around.
	commits(300)
	files = recordFiles(t, l)
	first := l.path(RelRecordsDir + "/" + files[0])
	data, err := os.ReadFile(first)
	require.NoError(t, err)
	for _, at := range []int{3, 20, 40, len(data) / 3, len(data) / 2, len(data) - 5} {
		damaged := slices.Clone(data)
		damaged[at] ^= 0x40
		require.NoError(t, os.WriteFile(first, damaged, FilePerm))
		require.Equal(t, model, lookupAll(t, l, false, keys), "byte %d changed", at)
		require.Equal(t, model, scanAll(t, l), "byte %d changed", at)
	}
	agree("damaged segment, then rewritten")
	commits(50)
	agree("after the repair")
	checkOK(t, l)
}

// A segment of another history (a copy of the workspace that went on
// differently, or lines rolled back) is not used: its hashes do not lead
// to the committed file sum.
func TestStaleRecordSegment(t *testing.T) {
	l := newRecordWorkspace(t)
	for i := range 20 {
		setRecords(t, l, []Record{{Key: recordKey(i), Value: fmt.Appendf(nil, "%d", i)}})
	}
	lookupAll(t, l, true, []string{"x"}) // grows the index
	other := New(filepath.Join(t.TempDir(), "other"), Options{NoSync: true})
	require.NoError(t, exec.Command("cp", "-a", l.Root(), other.Root()).Run())
	for i := range 30 {
		setRecords(t, other, []Record{{Key: recordKey(i), Value: []byte(`"other"`)}})
	}
	lookupAll(t, other, true, []string{"x"})
	for i := range 30 {
		setRecords(t, l, []Record{{Key: recordKey(i), Value: []byte(`"ours"`)}})
	}
	// Ours first, then the other's over it, so that both histories have
	// segments covering the same lines.
	want := lookupAll(t, l, true, []string{recordKey(3), recordKey(25)})
	assert.Equal(t, map[string]string{recordKey(3): `"ours"`, recordKey(25): `"ours"`}, want)
	for _, name := range recordFiles(t, other) {
		data, err := os.ReadFile(other.path(RelRecordsDir + "/" + name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(l.path(RelRecordsDir+"/"+name), data, FilePerm))
	}
	var keys []string
	for i := range 30 {
		keys = append(keys, recordKey(i))
	}
	got := lookupAll(t, l, false, keys)
	for _, k := range keys {
		assert.Equal(t, `"ours"`, got[k], k)
	}
	assert.Equal(t, got, lookupAll(t, l, true, keys))
	assert.Equal(t, got, scanAll(t, l))
}

// A commit of records cut short anywhere is rolled back with its event:
// the log is cut back to the line before, the records read as before, and
// the next commit writes its line where the lost one was.
func TestRecordCommitCrashed(t *testing.T) {
	for _, stage := range []string{"journal", "append ucs/state/action_log.jsonl", "append ucs/state/model.jsonl", "prev", "committed"} {
		t.Run(stage, func(t *testing.T) {
			l := newRecordWorkspace(t)
			for i := range 12 {
				setRecords(t, l, []Record{{Key: "k", Value: fmt.Appendf(nil, "%d", i)}, {Key: recordKey(i), Value: []byte("true")}})
			}
			lookupAll(t, l, true, []string{"k"}) // a segment covers the lines
			before := workspacetest.Fingerprint(t, l.Root())

			tx, err := l.Begin(true)
			require.NoError(t, err)
			tx.Add(RelActionLog, pyjson.Obj(pyjson.KV("action", "web_fetch")))
			require.NoError(t, tx.SetRecords([]Record{{Key: "k", Value: []byte(`"lost"`)}, {Key: "new", Value: []byte("1")}}))
			crashed := CrashAt(stage, func() { tx.Commit(event("test", tx.Meta.Seq), testState) })
			tx.Close()
			require.True(t, crashed)

			got := lookupAll(t, l, true, []string{"k", "new"})
			if stage == "committed" {
				assert.Equal(t, map[string]string{"k": `"lost"`, "new": "1"}, got)
				return
			}
			assert.Equal(t, map[string]string{"k": "11"}, got)
			assert.Equal(t, before, workspacetest.Fingerprint(t, l.Root()), "rolled back to exactly the workspace before")
			setRecords(t, l, []Record{{Key: "k", Value: []byte(`"again"`)}})
			assert.Equal(t, map[string]string{"k": `"again"`}, lookupAll(t, l, false, []string{"k", "new"}))
			checkOK(t, l)
		})
	}
}

// Check proves the model log line by line: its format and its events'
// order, besides what it proves of every data file.
func TestCheckModelLog(t *testing.T) {
	for name, line := range map[string]string{
		"not the format":      `{"set":[],"seq":4}`,
		"keys unsorted":       `{"seq":4,"set":[["b",1],["a",1]]}`,
		"event not after":     `{"seq":2,"set":[["a",1]]}`,
		"a record not a pair": `{"seq":4,"set":[["a"]]}`,
	} {
		t.Run(name, func(t *testing.T) {
			l := newRecordWorkspace(t)
			setRecords(t, l, []Record{{Key: "a", Value: []byte("1")}})
			// Commit the bad line as the model log's, as a buggy caller
			// adding to the file would.
			tx, err := l.Begin(true)
			require.NoError(t, err)
			v, err := pyjson.Parse([]byte(line))
			require.NoError(t, err)
			tx.Add(RelModelLog, v)
			_, err = tx.Commit(event("test", tx.Meta.Seq), testState)
			require.NoError(t, err)
			tx.Close()
			out, err := l.Check(false, testNow, noStateCheck)
			require.Error(t, err, "%s", pyjson.Indent(out))
			assert.Contains(t, err.Error(), RelModelLog)
		})
	}
}
