package workspace

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace/workspacetest"
)

// A transaction closed without a commit changes no file, whatever it
// queued.
func TestTxWithoutCommitChangesNothing(t *testing.T) {
	l := newTestWorkspace(t)
	before := workspacetest.Fingerprint(t, l.Root())
	tx, err := l.Begin(true)
	require.NoError(t, err)
	tx.Add(RelMethodology, entry("never committed", "read"))
	tx.Append(RelMethodologyMD, []byte("\nnever committed\n"))
	tx.Meta.ReportCounter = 3
	got, err := tx.List(RelMethodology)
	require.NoError(t, err)
	assert.Len(t, got, 1, "the transaction sees what it added")
	tx.Close()
	assert.Equal(t, before, workspacetest.Fingerprint(t, l.Root()))
	checkOK(t, l)
}

// A commit cut short at each of its steps (the process killed there) is
// rolled back by the next transaction to exactly the workspace before it;
// cut after its commit point, it is whole.
func TestCommitCrashedAtEachStage(t *testing.T) {
	stages := []string{"journal", "append ucs/knowledge/methodology.md", "append ucs/state/action_log.jsonl",
		"append ucs/state/methodology.jsonl", "append ucs/state/index-v1/methodology.jsonl",
		"append ucs/state/index-v1/methodology-cap-0.txt", "prev", "committed"}
	for _, stage := range stages {
		t.Run(stage, func(t *testing.T) {
			l := newTestWorkspace(t)
			commit(t, l, map[string][]pyjson.Value{RelActionLog: {pyjson.Obj(pyjson.KV("action", "read"))}})
			before := workspacetest.Fingerprint(t, l.Root())

			tx, err := l.Begin(true)
			require.NoError(t, err)
			tx.Append(RelMethodologyMD, []byte("\nfetch whole pages\n"))
			tx.Add(RelActionLog, pyjson.Obj(pyjson.KV("action", "web_fetch")))
			tx.Add(RelMethodology, entry("fetch whole pages", "read"))
			crashed := CrashAt(stage, func() { tx.Commit(event("test", 2), testState) })
			tx.Close()
			require.True(t, crashed, "the stage was reached")

			tx, err = l.Begin(false)
			require.NoError(t, err)
			defer tx.Close()
			log, err := tx.List(RelActionLog)
			require.NoError(t, err)
			if stage == "committed" {
				assert.Empty(t, tx.Recovered())
				assert.Equal(t, int64(3), tx.Meta.Seq)
				assert.Len(t, log, 2, "the commit landed")
			} else {
				require.NotEmpty(t, tx.Recovered())
				assert.Contains(t, tx.Recovered()[0], "rolled back event 3")
				assert.Equal(t, int64(2), tx.Meta.Seq)
				assert.Len(t, log, 1)
				assert.Equal(t, before, workspacetest.Fingerprint(t, l.Root()), "rolled back to exactly the workspace before")
			}
			tx.Close()
			checkOK(t, l)
		})
	}
}

// A torn last line, a write cut short, was never committed: recovery cuts
// it off the journal, readers skip it in a data file, and the next append
// overwrites it.
func TestTornLines(t *testing.T) {
	l := newTestWorkspace(t)
	commit(t, l, map[string][]pyjson.Value{RelActionLog: {pyjson.Obj(pyjson.KV("n", 1))}})
	before := workspacetest.Fingerprint(t, l.Root())
	for _, rel := range []string{RelJournal, RelActionLog} {
		f, err := os.OpenFile(l.Path(rel), os.O_WRONLY|os.O_APPEND, 0)
		require.NoError(t, err)
		_, err = f.WriteString(`{"torn": tr`)
		require.NoError(t, err)
		require.NoError(t, f.Close())
	}
	_, err := l.Check(false, testNow, noStateCheck)
	require.Error(t, err, "check names the torn lines")

	tx, err := l.Begin(false)
	require.NoError(t, err)
	assert.Equal(t, []string{"cut a torn line off the journal"}, tx.Recovered())
	log, err := tx.List(RelActionLog)
	require.NoError(t, err)
	assert.Len(t, log, 1, "the torn line is not an entry")
	tail, err := tx.Tail(RelActionLog, 5)
	require.NoError(t, err)
	assert.Len(t, tail, 1)
	tx.Close()

	commit(t, l, map[string][]pyjson.Value{RelActionLog: {pyjson.Obj(pyjson.KV("n", 2))}})
	data, err := os.ReadFile(l.Path(RelActionLog))
	require.NoError(t, err)
	assert.Equal(t, "{\"n\": 1}\n{\"n\": 2}\n", string(data), "the append overwrote the torn line")
	assert.NotEqual(t, before, workspacetest.Fingerprint(t, l.Root()))
	checkOK(t, l)
}

// The journal holds one event per commit, each linked to the one before,
// and check proves every file against it; an edited data file or event is
// found.
func TestJournalChain(t *testing.T) {
	l := newTestWorkspace(t)
	for i := range 3 {
		commit(t, l, map[string][]pyjson.Value{RelActionLog: {pyjson.Obj(pyjson.KV("n", i))}})
	}
	j, ok, err := l.OpenJournal()
	require.NoError(t, err)
	require.True(t, ok)
	var ops []string
	for {
		ev, breaks, ok := j.Next()
		if !ok {
			break
		}
		assert.Empty(t, breaks)
		ops = append(ops, ev.Op)
	}
	j.Close()
	require.NoError(t, j.Err())
	assert.Equal(t, []string{"init", "test", "test", "test"}, ops)
	last, ok, err := l.LastEvent()
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, int64(4), last.Seq)
	assert.Equal(t, map[string]int64{RelActionLog: int64(len(`{"n": 0}` + "\n" + `{"n": 1}` + "\n"))}, fileOffsets(last))
	checkOK(t, l)

	data, err := os.ReadFile(l.Path(RelActionLog))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(l.Path(RelActionLog), []byte(strings.Replace(string(data), "1", "7", 1)), 0o600))
	out, err := l.Check(false, testNow, noStateCheck)
	require.Error(t, err)
	assert.Equal(t, fault.KindCorrupt, fault.AsError(err).Kind)
	assert.Contains(t, string(pyjson.Canonical(pyjson.ObjectValue(fault.AsError(err).Details))), "differ from what was committed", "%s", out)
}

func fileOffsets(ev Event) map[string]int64 {
	out := map[string]int64{}
	for _, m := range ev.Files.Members() {
		out[m.Key], _ = m.Value.Int()
	}
	return out
}

// A read never writes: a stale index is left as it is (searches read the
// data files), and a changing call rebuilds it before it searches.
func TestRefreshIndex(t *testing.T) {
	l := newTestWorkspace(t)
	commit(t, l, map[string][]pyjson.Value{RelMethodology: {entry("a", "read"), entry("b", "web_fetch")}})
	require.NoError(t, os.RemoveAll(l.Path(RelIndexDir)))
	for _, exclusive := range []bool{false, true} {
		tx, err := l.Begin(exclusive)
		require.NoError(t, err)
		assert.False(t, tx.IndexCurrent(RelMethodology))
		tx.RefreshIndex(RelMethodology)
		assert.Equal(t, exclusive, tx.IndexCurrent(RelMethodology))
		tx.Close()
		if !exclusive {
			assert.NoDirExists(t, l.Path(RelIndexDir), "a read does not build the index")
		}
	}
	assert.DirExists(t, l.Path(RelIndexDir))
	checkOK(t, l)
}

// A newer ucs's workspace is refused with unsupported_version, before
// anything is read or changed; so is a learning model this ucs does not
// know.
func TestUnsupportedRefused(t *testing.T) {
	root := newTestWorkspace(t).Root()
	l := New(root, Options{Models: func() []string { return []string{"v9"} }})
	before := workspacetest.Fingerprint(t, root)
	_, err := l.Begin(true)
	require.Error(t, err)
	assert.Equal(t, fault.KindUnsupported, fault.AsError(err).Kind)
	assert.Contains(t, err.Error(), `the learning model "v2"`)
	assert.Equal(t, before, workspacetest.Fingerprint(t, root))
}
