package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// logged opens the workspace at root with a write log.
func logged(root string) (*Workspace, *WriteLog) {
	w := &WriteLog{Root: root}
	opts := testOptions
	opts.Writes = w
	return New(root, opts), w
}

// The write log of two commits in one call holds, for each file, exactly
// the bytes the commits added after the file's length before the call (or
// the whole file written), as the files show them.
func TestWriteLogMatchesTheFiles(t *testing.T) {
	root := newTestWorkspace(t).Root()
	l, w := logged(root)
	size := func(rel string) int64 {
		st, err := os.Stat(l.path(rel))
		require.NoError(t, err)
		return st.Size()
	}
	read := func(rel string) []byte {
		b, err := os.ReadFile(l.path(rel))
		require.NoError(t, err)
		return b
	}
	journalAt, ppAt := size(RelJournal), size(RelPPHistory)
	commit(t, l, map[string][]pyjson.Value{RelMethodology: {entry("a", "read")}, RelPPHistory: {pyjson.Obj(pyjson.KV("t", 1))}})
	commit(t, l, map[string][]pyjson.Value{RelPPHistory: {pyjson.Obj(pyjson.KV("t", 2))}})
	require.False(t, w.Untracked)

	j := w.File(RelJournal)
	require.NotNil(t, j)
	assert.Equal(t, journalAt, j.Off)
	assert.Equal(t, read(RelJournal)[journalAt:], j.Data, "both events, in order")
	pp := w.File(RelPPHistory)
	require.NotNil(t, pp)
	assert.Equal(t, ppAt, pp.Off)
	assert.Equal(t, read(RelPPHistory)[ppAt:], pp.Data)
	m := w.File(RelMethodology)
	require.NotNil(t, m)
	assert.True(t, m.Whole, "a file the call created is logged whole")
	assert.Equal(t, read(RelMethodology), m.Data)
	st := w.File(RelState)
	require.NotNil(t, st)
	assert.True(t, st.Whole)
	assert.Equal(t, read(RelState), st.Data, "the last commit's state")

	// A workspace of another root given the same options logs nothing.
	other := newTestWorkspace(t)
	opts := testOptions
	opts.Writes = w
	w.Reset()
	commit(t, New(other.Root(), opts), nil)
	assert.Empty(t, w.Files)
	assert.False(t, w.Untracked)
}

// What changes files outside a commit leaves the log untracked: a backup
// (a migration's), a recovery of a call cut short, a repair.
func TestWriteLogUntracked(t *testing.T) {
	t.Run("backup", func(t *testing.T) {
		l, w := logged(newTestWorkspace(t).Root())
		tx, err := l.Begin(true)
		require.NoError(t, err)
		defer tx.Close()
		_, err = tx.Backup("migrate", RelState)
		require.NoError(t, err)
		assert.True(t, w.Untracked)
	})
	t.Run("recovery", func(t *testing.T) {
		root := newTestWorkspace(t).Root()
		// A journal event whose state never landed: the next Begin rolls
		// it back.
		ev := event("report", 1)
		line := append(ev.seal(), '\n')
		f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(RelJournal)), os.O_WRONLY|os.O_APPEND, 0)
		require.NoError(t, err)
		_, err = f.Write(line[:len(line)/2]) // a torn line
		require.NoError(t, err)
		require.NoError(t, f.Close())
		l, w := logged(root)
		tx, err := l.Begin(true)
		require.NoError(t, err)
		tx.Close()
		assert.True(t, w.Untracked)
	})
	t.Run("repair", func(t *testing.T) {
		l, w := logged(newTestWorkspace(t).Root())
		_, err := l.Check(true, testNow, noStateCheck)
		require.NoError(t, err)
		assert.True(t, w.Untracked)
	})
	t.Run("a commit alone", func(t *testing.T) {
		l, w := logged(newTestWorkspace(t).Root())
		commit(t, l, nil)
		assert.False(t, w.Untracked)
	})
}

// Request records pruned after a commit are logged as removed, each file
// of the dropped buckets: a store deletes them too.
func TestWriteLogPrunedRequests(t *testing.T) {
	l, w := logged(newTestWorkspace(t).Root())
	for _, rel := range []string{RelRequests + "/0/a.json", RelRequests + "/0/b.json", RelRequests + "/11/c.json"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(l.path(rel)), DirPerm))
		require.NoError(t, os.WriteFile(l.path(rel), []byte("{}\n"), FilePerm))
	}
	pruneRequests(l, 11*requestBucket+1) // bucket 0 is too old; 11 is kept
	assert.False(t, w.Untracked)
	assert.Equal(t, []FileWrite{{Rel: RelRequests + "/0/a.json", Removed: true}, {Rel: RelRequests + "/0/b.json", Removed: true}}, w.Files)
	assert.NoFileExists(t, l.path(RelRequests+"/0/a.json"))
	assert.FileExists(t, l.path(RelRequests+"/11/c.json"))
}
