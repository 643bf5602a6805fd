package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// Snapshots make replay fast: every SnapshotEvery events (and at adoption,
// whose state cannot be replayed from anything) the committed state is
// copied to ucs/state/snapshots/SEQ/: the state file, the pinned manifest,
// every data file, and the Markdown knowledge under knowledge/ (unhashed,
// for a faithful copy). The journal's event SEQ holds the state's hash, and
// the state file the hash of each data file, so a damaged snapshot is
// detected and skipped.
const (
	RelSnapshots         = "ucs/state/snapshots"
	DefaultSnapshotEvery = 1000
)

// snapshotFiles are what a snapshot holds, besides the state file.
func snapshotFiles() []string {
	return append([]string{RelState, RelPinned, RelObservations}, countedFiles...)
}

// writeSnapshot copies the committed state of event seq. It runs after the
// commit; a crash leaves at most a .tmp directory, which is ignored.
func writeSnapshot(l *Workspace, seq int64) error {
	dir := l.path(RelSnapshots + "/" + strconv.FormatInt(seq, 10))
	tmp := dir + ".tmp"
	if err := l.realDirs(RelSnapshots); err != nil {
		return err
	}
	os.RemoveAll(tmp)
	if err := os.MkdirAll(tmp, DirPerm); err != nil {
		return fault.Internal(err, "create snapshot")
	}
	for _, rel := range snapshotFiles() {
		data, err := readFile(l.path(rel))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fault.Internal(err, "read %s for a snapshot", rel)
		}
		if err := writeFile(filepath.Join(tmp, filepath.Base(rel)), data); err != nil {
			return fault.Internal(err, "write snapshot")
		}
	}
	if err := copyTree(l.path(RelKnowledgeDir), filepath.Join(tmp, "knowledge")); err != nil {
		return err
	}
	os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		return fault.Internal(err, "commit snapshot")
	}
	return nil
}

// Snapshots lists the snapshots present, oldest first.
func (l *Workspace) Snapshots() []int64 {
	entries, _ := os.ReadDir(l.path(RelSnapshots))
	var seqs []int64
	for _, e := range entries {
		if n, err := strconv.ParseInt(e.Name(), 10, 64); err == nil && e.IsDir() {
			seqs = append(seqs, n)
		}
	}
	slices.Sort(seqs)
	return seqs
}

// restoreSnapshot copies snapshot seq into a scratch workspace.
func restoreSnapshot(from, to *Workspace, seq int64) error {
	dir := from.path(RelSnapshots + "/" + strconv.FormatInt(seq, 10))
	for _, rel := range snapshotFiles() {
		data, err := readFile(filepath.Join(dir, filepath.Base(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fault.Internal(err, "read snapshot %d", seq)
		}
		if err := os.MkdirAll(filepath.Dir(to.path(rel)), DirPerm); err != nil {
			return fault.Internal(err, "create scratch workspace")
		}
		if err := os.WriteFile(to.path(rel), data, FilePerm); err != nil {
			return fault.Internal(err, "write scratch workspace")
		}
	}
	return copyTree(filepath.Join(dir, "knowledge"), to.path(RelKnowledgeDir))
}

// copyTree copies the regular files of a directory tree; a missing source
// copies nothing.
func copyTree(src, dst string) error {
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, DirPerm)
		}
		data, err := readFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, FilePerm)
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fault.Internal(err, "copy %s", src)
	}
	return nil
}
