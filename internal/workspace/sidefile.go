package workspace

import (
	"errors"
	"os"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// A side file is a file beside the state that the state names by its
// SHA-256 instead of holding it (the book of observations): a call that
// does not touch it neither reads nor writes it. Being content-addressed,
// it needs no journal offsets: the commit writes the new version whole
// before the state that names it, keeping the version the old state named
// as rel+".prev", so a call cut short leaves a state whose file is one of
// the two (ReadSideFile).
//
// A derived file is one rebuilt from the others whenever it does not
// match them (a side file's index): the commit writes it unsynced.
type sideFile struct {
	rel     string
	data    []byte
	prevSum string // the SHA-256 of the version the committed state names
	derived bool
}

// SetSideFile queues the new version of the side file rel, which the state
// about to be committed names by its SHA-256. prevSum is the SHA-256 the
// committed state names ("" for none): the file on disk is kept as
// rel+".prev" when it is that version. A later call for the same rel
// replaces the queued version.
func (tx *Tx) SetSideFile(rel string, data []byte, prevSum string) {
	tx.queueSide(sideFile{rel: rel, data: data, prevSum: prevSum})
}

// SetDerived queues a derived file, written whole and unsynced with the
// commit: it is rebuilt whenever it does not match what it derives from,
// so losing it to a crash costs a rebuild, never data.
func (tx *Tx) SetDerived(rel string, data []byte) {
	tx.queueSide(sideFile{rel: rel, data: data, derived: true})
}

func (tx *Tx) queueSide(f sideFile) {
	for i := range tx.sides {
		if tx.sides[i].rel == f.rel {
			tx.sides[i] = f
			return
		}
	}
	tx.sides = append(tx.sides, f)
}

// writeSides writes the queued side files, in the order queued, before
// the commit's journal event and state: until the state is replaced it
// names the version kept as .prev, and the state directory's sync after
// the rename makes the new names durable with it. A side file is synced
// unless Options.NoSync; a derived file never is. Each is written through
// a new file renamed into place, so a link at its name is replaced, never
// followed.
func (tx *Tx) writeSides() error {
	for _, f := range tx.sides {
		if err := tx.l.realDirOf(f.rel); err != nil {
			return err
		}
		path := tx.l.path(f.rel)
		if !f.derived && f.prevSum != "" {
			if cur, err := tx.l.ReadFile(f.rel); err == nil && sha256hex(cur) == f.prevSum {
				if err := os.Rename(path, path+".prev"); err != nil {
					return fault.Internal(err, "keep the previous %s", f.rel)
				}
			}
		}
		if err := replaceFile(path, f.data, !f.derived && !tx.l.opts.NoSync); err != nil {
			return fault.Internal(err, "write %s", f.rel)
		}
	}
	return nil
}

// ReadSideFile reads the side file rel whose SHA-256 is sum, through read
// (a workspace's ReadFile, or a store's): the file, or its .prev when a
// call was cut short after writing a new one. Neither matching is an error
// of kind corrupt naming rel.
func ReadSideFile(read func(string) ([]byte, error), rel, sum string) ([]byte, error) {
	for _, name := range []string{rel, rel + ".prev"} {
		if data, err := read(name); err == nil && sha256hex(data) == sum {
			return data, nil
		}
	}
	return nil, fault.Corrupt(errors.New("neither the file nor its .prev has the SHA-256 the state names ("+sum+")"), rel)
}
