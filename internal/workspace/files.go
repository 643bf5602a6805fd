package workspace

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/google/renameio/v2"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// readJSONL reads a file of JSON objects, one per line. A missing file is
// empty. A last line without its newline was never committed (a write was
// cut short) and is ignored; any other line that does not parse is
// corruption.
func readJSONL(l *Workspace, rel string) ([]pyjson.Value, error) {
	data, err := readCommitted(l, rel)
	if err != nil {
		return nil, err
	}
	var out []pyjson.Value
	for n := 1; len(data) > 0; n++ {
		i := bytes.IndexByte(data, '\n')
		line := data[:i]
		data = data[i+1:]
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		v, err := pyjson.Parse(line)
		if err != nil {
			return nil, fault.Corrupt(err, relLine(rel, n))
		}
		out = append(out, v)
	}
	return out, nil
}

// readLines reads the lines of a JSON-lines file that are not blank,
// undecoded. A missing file has none; a torn last line is left out.
func readLines(l *Workspace, rel string) ([][]byte, error) {
	data, err := readCommitted(l, rel)
	if err != nil {
		return nil, err
	}
	var lines [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if line := data[:i]; len(bytes.TrimSpace(line)) > 0 {
			lines = append(lines, line)
		}
		data = data[i+1:]
	}
	return lines, nil
}

// readCommitted reads a data file up to its last newline: a last line
// without one was never committed (a write was cut short). A missing file
// is empty.
func readCommitted(l *Workspace, rel string) ([]byte, error) {
	data, err := readFile(l.path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fault.Internal(err, "read %s", rel)
	}
	return data[:bytes.LastIndexByte(data, '\n')+1], nil
}

func relLine(rel string, n int) string {
	return rel + ":" + itoa(n)
}

func itoa(n int) string { return strconv.Itoa(n) }

// Size returns a workspace file's length, or -1 when it does not exist.
func (l *Workspace) Size(rel string) (int64, error) { return fileSize(l, rel) }

// fileSize returns a file's length, or -1 when it does not exist.
// A link is not followed: its own size is returned, and opening it fails.
func fileSize(l *Workspace, rel string) (int64, error) {
	st, err := os.Lstat(l.path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return -1, nil
	}
	if err != nil {
		return 0, fault.Internal(err, "stat %s", rel)
	}
	return st.Size(), nil
}

// appendOffset is where an operation appends to a file: its end, except
// that a torn last line of a JSON-lines file (one without its newline) was
// never committed and is overwritten. -1 means the file does not exist.
// Markdown files are taken as they are: a person may have edited them.
func appendOffset(l *Workspace, rel string) (int64, error) {
	size, err := fileSize(l, rel)
	if err != nil || size <= 0 || !strings.HasSuffix(rel, ".jsonl") {
		return size, err
	}
	f, err := openRead(l.path(rel))
	if err != nil {
		return 0, fault.Internal(err, "open %s", rel)
	}
	defer f.Close()
	_, end, _, err := lastLine(f, size, 0)
	return end, err
}

// writeAt writes data at offset (the file's length before the operation)
// and returns the open file, unsynced: a commit syncs its files together
// (syncAll). Writing at the recorded offset instead of O_APPEND makes the
// step idempotent: a retried commit overwrites what a killed one left.
//
// It creates the file's directory when missing and returns, in newDirs, the
// directories whose entries that changed (see mkdirs).
func writeAt(l *Workspace, rel string, offset int64, data []byte) (f *os.File, newDirs []string, err error) {
	path := l.path(rel)
	if err := l.realDirOf(rel); err != nil {
		return nil, nil, err
	}
	if newDirs, err = mkdirs(filepath.Dir(path)); err != nil {
		return nil, nil, fault.Internal(err, "create directory for %s", rel)
	}
	f, err = openFile(path, os.O_WRONLY|os.O_CREATE, FilePerm)
	if err != nil {
		return nil, nil, fault.Internal(err, "open %s", rel)
	}
	off := max(offset, 0)
	if err := f.Truncate(off); err != nil {
		f.Close()
		return nil, nil, fault.Internal(err, "truncate %s", rel)
	}
	if _, err := f.WriteAt(data, off); err != nil {
		f.Close()
		return nil, nil, fault.Internal(err, "write %s", rel)
	}
	return f, newDirs, nil
}

// mkdirs creates dir and any missing parent, as os.MkdirAll does, and
// returns the directories whose entries it changed: the parent of each
// directory it created, outermost first. A new directory survives a power
// loss only once its parent is synced, so a commit syncs these with the
// directories of the files it created.
func mkdirs(dir string) ([]string, error) {
	if fi, err := os.Stat(dir); err == nil {
		if !fi.IsDir() {
			return nil, &fs.PathError{Op: "mkdir", Path: dir, Err: syscall.ENOTDIR}
		}
		return nil, nil
	}
	var changed []string
	parent := filepath.Dir(dir)
	if parent != dir {
		var err error
		if changed, err = mkdirs(parent); err != nil {
			return nil, err
		}
	}
	if err := os.Mkdir(dir, DirPerm); err != nil {
		if fi, serr := os.Stat(dir); serr != nil || !fi.IsDir() {
			return nil, err
		}
		return changed, nil // made meanwhile by someone else
	}
	return append(changed, parent), nil
}

func closeSynced(f *os.File, rel string) error {
	err := syncFile(f, rel)
	if cerr := f.Close(); err == nil && cerr != nil {
		return fault.Internal(cerr, "close %s", rel)
	}
	return err
}

func syncFile(f *os.File, rel string) error {
	if err := f.Sync(); err != nil {
		return fault.Internal(err, "sync %s", rel)
	}
	return nil
}

// syncAll fsyncs files at once, each but the last in a goroutine of its
// own. An fsync mostly waits for the file system's journal to commit, and
// waits that overlap share commits: a commit that created six files (init)
// pays about two waits instead of six. It returns the first error, in the
// files' order.
func syncAll(files []*os.File, rels []string) error {
	if len(files) == 0 {
		return nil
	}
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	last := len(files) - 1
	for i := range files[:last] {
		wg.Go(func() { errs[i] = syncFile(files[i], rels[i]) })
	}
	errs[last] = syncFile(files[last], rels[last])
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes a workspace file whole, as os.WriteFile does but never
// through a link (openFile), unsynced.
func writeFile(path string, data []byte) error {
	f, err := openFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, FilePerm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// replaceFile writes a file whole through a new file in its directory,
// renamed into place (renameio): a link at path is replaced, never
// followed, and the file is FilePerm whatever the umask or the mode of the
// file it replaces (renameio.WriteFile would keep that mode). It syncs the
// file before the rename when sync is set.
func replaceFile(path string, data []byte, sync bool) error {
	pf, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)),
		renameio.WithStaticPermissions(FilePerm))
	if err != nil {
		return err
	}
	defer pf.Cleanup()
	if _, err := pf.Write(data); err != nil {
		return err
	}
	if sync {
		return pf.CloseAtomicallyReplace()
	}
	if err := pf.File.Close(); err != nil {
		return err
	}
	return os.Rename(pf.Name(), path)
}

// WritePrivate writes a file ucs makes for the user, such as a page of
// view or an answer of exec, whole and synced: readable by its owner alone
// (0600: it holds what the workspace holds), and written to a new file in
// its directory that is renamed into place, so a link at path is replaced,
// not followed, and a reader never sees half a file.
//
// A stream is written as it is, not replaced: a path that is, or links to,
// a device, a named pipe or a socket (/dev/null, /dev/stdout, /dev/fd/3),
// where renaming a file over it would take it away from every other
// program.
func WritePrivate(path string, data []byte) error {
	if isStream(path) {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	return replaceFile(path, data, true)
}

// isStream reports whether path is, or links to, a file that is neither
// regular nor a directory.
func isStream(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

// newStateFile writes the new state to a temporary file beside the state
// file, through renameio, without syncing: the caller syncs it with the
// appends (syncAll takes its *os.File) and then renames it into place with
// CloseAtomicallyReplace, which syncs it again (by then a no-op) first.
func newStateFile(l *Workspace, rel string, data []byte) (*renameio.PendingFile, error) {
	path := l.path(rel)
	// The temporary file goes beside the target: same file system, so the
	// rename is atomic, and renameio need not probe os.TempDir on every call.
	pf, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)),
		renameio.WithStaticPermissions(FilePerm))
	if err != nil {
		return nil, fault.Internal(err, "create a temporary file for %s", rel)
	}
	if _, err := pf.Write(data); err != nil {
		pf.Cleanup()
		return nil, fault.Internal(err, "write %s", rel)
	}
	return pf, nil
}

func sha256hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// sumFile summarizes a data file as it is on disk: its complete lines, with
// a torn last line ignored.
func sumFile(l *Workspace, rel string) (FileSum, error) {
	data, err := readFile(l.path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return FileSum{}, nil
	}
	if err != nil {
		return FileSum{}, fault.Internal(err, "read %s", rel)
	}
	var sum FileSum
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		sum = sum.add(data[:i+1])
		data = data[i+1:]
	}
	return sum, nil
}

// newBackupDir creates and returns a fresh directory under ucs/state/backup/
// named name, or name-2, name-3, ...: a backup never overwrites another,
// even when two are made in the same second.
func newBackupDir(l *Workspace, name string) (string, error) {
	base := filepath.Join(l.path(RelBackupDir), name)
	if err := l.realDirs(RelBackupDir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(base), DirPerm); err != nil {
		return "", fault.Internal(err, "create %s", RelBackupDir)
	}
	dir := base
	for i := 2; ; i++ {
		err := os.Mkdir(dir, DirPerm)
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fault.Internal(err, "create %s", dir)
		}
		dir = base + "-" + strconv.Itoa(i)
	}
}

// MakePrivate makes the workspace's files and directories private to
// their owner (0600 and 0700), as format 2 has them.
func (l *Workspace) MakePrivate() error {
	return filepath.WalkDir(l.path("ucs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fault.Internal(err, "walk %s", path)
		}
		mode := FilePerm
		if d.IsDir() {
			mode = DirPerm
		} else if !d.Type().IsRegular() {
			return nil
		}
		if err := os.Chmod(path, mode); err != nil {
			return fault.Internal(err, "chmod %s", path)
		}
		return nil
	})
}
