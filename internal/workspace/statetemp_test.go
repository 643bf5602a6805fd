package workspace

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace/workspacetest"
)

// newNoSyncWorkspace is newTestWorkspace for a copy that does not sync.
func newNoSyncWorkspace(t *testing.T) *Workspace {
	t.Helper()
	opts := testOptions
	opts.NoSync = true
	return newTestWorkspaceWith(t, opts)
}

func inode(t *testing.T, name string) uint64 {
	t.Helper()
	st, err := os.Stat(name)
	require.NoError(t, err)
	return st.Sys().(*syscall.Stat_t).Ino
}

// A commit that does not sync writes the new state over the file the
// previous commit kept as .prev: the state's file and .prev trade places,
// .prev holds the state before the commit, and no temporary file stays.
func TestNoSyncCommitReusesThePrevious(t *testing.T) {
	l := newNoSyncWorkspace(t)
	commit(t, l, nil) // the first .prev
	var states [][]byte
	for i := range 3 {
		before, err := os.ReadFile(l.path(RelState))
		require.NoError(t, err)
		prevInode := inode(t, l.path(RelStatePrev))
		commit(t, l, map[string][]pyjson.Value{RelActionLog: {pyjson.Obj(pyjson.KV("i", i))}})
		assert.Equal(t, prevInode, inode(t, l.path(RelState)), "the state was written over the old .prev")
		prev, err := os.ReadFile(l.path(RelStatePrev))
		require.NoError(t, err)
		assert.Equal(t, before, prev, ".prev is the state before the commit")
		states = append(states, before)
		checkOK(t, l)
	}
	entries, err := os.ReadDir(l.path(RelStateDir))
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotEqual(t, '.', e.Name()[0], "a temporary file stayed: %s", e.Name())
	}
	tx, err := l.Begin(false)
	require.NoError(t, err)
	defer tx.Close()
	assert.Equal(t, int64(5), tx.Meta.Seq)
	log, err := tx.List(RelActionLog)
	require.NoError(t, err)
	assert.Len(t, log, 3)
}

// A .prev that is not its file's only name (a hard link elsewhere) is
// never written over: the commit creates a file, as one that syncs does.
func TestNoSyncCommitKeepsALinkedPrevious(t *testing.T) {
	l := newNoSyncWorkspace(t)
	commit(t, l, nil)
	other := filepath.Join(t.TempDir(), "kept")
	require.NoError(t, os.Link(l.path(RelStatePrev), other))
	kept, err := os.ReadFile(other)
	require.NoError(t, err)
	commit(t, l, nil)
	after, err := os.ReadFile(other)
	require.NoError(t, err)
	assert.Equal(t, kept, after)
	checkOK(t, l)
}

// A commit that does not sync, cut short at each of its steps, is rolled
// back by the next transaction to the workspace before it, as one that
// syncs is (TestCommitCrashedAtEachStage); cut after its commit point, it
// is whole.
func TestNoSyncCommitCrashedAtEachStage(t *testing.T) {
	for _, stage := range []string{"journal", "append ucs/state/action_log.jsonl", "prev", "committed"} {
		t.Run(stage, func(t *testing.T) {
			l := newNoSyncWorkspace(t)
			commit(t, l, map[string][]pyjson.Value{RelActionLog: {pyjson.Obj(pyjson.KV("action", "read"))}})
			before := workspacetest.Fingerprint(t, l.Root())

			tx, err := l.Begin(true)
			require.NoError(t, err)
			tx.Add(RelActionLog, pyjson.Obj(pyjson.KV("action", "web_fetch")))
			crashed := CrashAt(stage, func() { tx.Commit(event("test", 2), testState) })
			tx.Close()
			require.True(t, crashed, "the stage was reached")

			tx, err = l.Begin(false)
			require.NoError(t, err)
			defer tx.Close()
			log, err := tx.List(RelActionLog)
			require.NoError(t, err)
			if stage == "committed" {
				assert.Equal(t, int64(3), tx.Meta.Seq)
				assert.Len(t, log, 2, "the commit landed")
			} else {
				require.NotEmpty(t, tx.Recovered())
				assert.Equal(t, int64(2), tx.Meta.Seq)
				assert.Len(t, log, 1)
				assert.Equal(t, before, workspacetest.Fingerprint(t, l.Root()), "rolled back to exactly the workspace before")
			}
			tx.Close()
			checkOK(t, l)
			commit(t, l, nil) // and it commits on
			checkOK(t, l)
		})
	}
}
