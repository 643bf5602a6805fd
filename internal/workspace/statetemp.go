package workspace

import (
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// A stateTemp is the new state's temporary file until the commit renames
// it into place: a new file (renameio), or, in a copy that does not sync
// (Options.NoSync), the previous commit's .prev written over
// (reuseStateFile).
type stateTemp struct {
	pf      *renameio.PendingFile
	f       *os.File
	name    string
	renamed bool
}

func (t *stateTemp) file() *os.File {
	if t.pf != nil {
		return t.pf.File
	}
	return t.f
}

func (t *stateTemp) path() string {
	if t.pf != nil {
		return t.pf.Name()
	}
	return t.name
}

// cleanup removes the file unless it was renamed into place.
func (t *stateTemp) cleanup() {
	switch {
	case t.pf != nil:
		t.pf.Cleanup() // a no-op once the rename is done
	case !t.renamed:
		t.f.Close()
		os.Remove(t.name)
	}
}

// reuseStateFile writes the new state over the file the previous commit
// kept as .prev, renamed to a temporary name (one removeStateTemps knows),
// instead of creating a file: this commit's keepPrevious would free that
// file anyway, and on a store's mirror, which commits on every call,
// creating a file and freeing one were the costliest system calls of the
// commit (creating one took 0.4-0.6 ms on an ext4 the machine shared,
// writing over one microseconds). Only where the commit does not sync:
// what the copy loses in a crash its store gives back. false: there is no
// .prev that is the file's one name, and the caller creates a file.
func reuseStateFile(l *Workspace, data []byte) (*stateTemp, bool) {
	prev := l.path(RelStatePrev)
	st, err := os.Lstat(prev)
	if err != nil || !st.Mode().IsRegular() || !singleLink(st) {
		return nil, false
	}
	name := filepath.Join(filepath.Dir(prev), "."+filepath.Base(RelState)+"0")
	if err := os.Rename(prev, name); err != nil {
		return nil, false
	}
	f, err := openFile(name, os.O_WRONLY, FilePerm)
	if err != nil {
		os.Remove(name)
		return nil, false
	}
	t := &stateTemp{f: f, name: name}
	if _, err := f.WriteAt(data, 0); err != nil {
		t.cleanup()
		return nil, false
	}
	if st.Size() > int64(len(data)) {
		if err := f.Truncate(int64(len(data))); err != nil {
			t.cleanup()
			return nil, false
		}
	}
	return t, true
}
