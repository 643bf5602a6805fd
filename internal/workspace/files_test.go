package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMkdirs checks that mkdirs reports exactly the directories whose
// entries it changed, the ones a commit must sync for new directories to
// survive a power loss.
func TestMkdirs(t *testing.T) {
	root := t.TempDir()
	p := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

	changed, err := mkdirs(root)
	require.NoError(t, err)
	require.Empty(t, changed, "an existing directory changes nothing")

	changed, err = mkdirs(p("a"))
	require.NoError(t, err)
	require.Equal(t, []string{root}, changed)

	changed, err = mkdirs(p("a/b/c/d"))
	require.NoError(t, err)
	require.Equal(t, []string{p("a"), p("a/b"), p("a/b/c")}, changed, "outermost first")
	require.DirExists(t, p("a/b/c/d"))

	require.NoError(t, os.WriteFile(p("f"), nil, 0o644))
	_, err = mkdirs(p("f"))
	require.Error(t, err, "a file where the directory should be")
	_, err = mkdirs(p("f/g"))
	require.Error(t, err)
}

// TestDirsToSync checks that a commit syncs the state directory, the
// directory of each file it created and the parents of each directory it
// created, once each.
func TestDirsToSync(t *testing.T) {
	l := New("/ws", Options{})
	order := []string{RelActionLog, "ucs/state/requests/3/k.json", RelMethodologyMD}
	sizes := map[string]int64{RelActionLog: 10, "ucs/state/requests/3/k.json": -1, RelMethodologyMD: -1}
	got := dirsToSync(l, order, sizes, []string{l.path("ucs/state"), l.path("ucs/state/requests")})
	require.Equal(t, []string{l.path(RelStateDir), l.path("ucs/state/requests/3"), l.path(RelKnowledgeDir),
		l.path("ucs/state/requests")}, got)
}
