package workspace

import (
	"io/fs"
	"path/filepath"
	"slices"
)

// A WriteLog is what the commits of one call wrote to a workspace, for a
// caller that keeps the workspace elsewhere too (a PostgreSQL store's
// mirror, Options.Writes): with it, the caller copies what changed without
// looking at the files before and after the call. Every file a commit
// writes is logged, derived ones included; the caller keeps those it
// stores.
//
// Only commits are logged. What changes files outside a commit (a
// recovery, a backup, a forced init, a repair, a reference workspace's
// adoption) sets Untracked instead: the log is then incomplete, and the
// caller must find the changes by itself.
type WriteLog struct {
	// Root is the directory of the workspace whose writes are logged: a
	// Workspace of another root given the same Options (a peer's, verify's
	// scratch copy) logs nothing.
	Root string
	// Untracked: files changed outside a commit.
	Untracked bool
	// Files are the files written, each once, in the order first written.
	Files []FileWrite
}

// A FileWrite is what a call's commits wrote to one file.
type FileWrite struct {
	Rel string
	// Whole: Data is the file's whole content (a file written whole, or
	// created by the call). Otherwise Data was appended at Off, the
	// file's length before the call.
	Whole   bool
	Off     int64
	Data    []byte
	Removed bool // the file was removed (Data is empty)
}

// Reset empties the log for another call on the same workspace.
func (w *WriteLog) Reset() {
	w.Untracked, w.Files = false, w.Files[:0]
}

// File is the log's entry for rel, or nil.
func (w *WriteLog) File(rel string) *FileWrite {
	if w == nil {
		return nil
	}
	for i := range w.Files {
		if w.Files[i].Rel == rel {
			return &w.Files[i]
		}
	}
	return nil
}

// appended logs data written at off (-1: a new file). Appends that follow
// one another in one call join; anything else makes the log untracked.
func (w *WriteLog) appended(rel string, off int64, data []byte) {
	if w == nil {
		return
	}
	f := w.File(rel)
	switch {
	case f == nil && off < 0:
		w.Files = append(w.Files, FileWrite{Rel: rel, Whole: true, Data: slices.Clone(data)})
	case f == nil:
		w.Files = append(w.Files, FileWrite{Rel: rel, Off: off, Data: slices.Clone(data)})
	case f.Removed && off < 0:
		*f = FileWrite{Rel: rel, Whole: true, Data: slices.Clone(data)}
	case !f.Removed && f.end() == off:
		f.Data = append(f.Data, data...)
	default:
		w.Untracked = true
	}
}

// wrote logs a file written whole.
func (w *WriteLog) wrote(rel string, data []byte) {
	if w == nil {
		return
	}
	e := FileWrite{Rel: rel, Whole: true, Data: slices.Clone(data)}
	if f := w.File(rel); f != nil {
		*f = e
		return
	}
	w.Files = append(w.Files, e)
}

// removed logs every file under the workspace's directory rel (a file or
// a directory) as removed; it runs before the removal.
func (w *WriteLog) removed(l *Workspace, rel string) {
	if w == nil {
		return
	}
	filepath.WalkDir(l.path(rel), func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		r, err := filepath.Rel(l.root, name)
		if err != nil {
			w.Untracked = true
			return nil
		}
		e := FileWrite{Rel: filepath.ToSlash(r), Removed: true}
		if f := w.File(e.Rel); f != nil {
			*f = e
		} else {
			w.Files = append(w.Files, e)
		}
		return nil
	})
}

// end is where the logged bytes of an appended file end (0 for a whole
// file: its content starts at 0).
func (f *FileWrite) end() int64 {
	if f.Whole {
		return int64(len(f.Data))
	}
	return f.Off + int64(len(f.Data))
}

// untracked notes that the workspace's files changed outside a commit.
func (l *Workspace) untracked() {
	if l.opts.Writes != nil {
		l.opts.Writes.Untracked = true
	}
}
