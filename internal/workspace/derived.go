package workspace

import (
	"os"
	"path"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// RelTermsDir names the term index (package search) with its format.
const RelTermsDir = "ucs/state/terms-v1"

// What a package above storage needs to keep an index of its own beside
// the data files (the term index of package search): derived files, never
// hashed nor journaled, which it trusts only as far as it proves them
// against the committed file sums (Meta.Files, FileSum.Add). Like the
// index's rebuild (RefreshIndex), writing them is a write outside a
// commit, and only a transaction holding the workspace exclusively does
// it (Exclusive).

// IndexUsable reports whether a derived index of rel may answer for it:
// not when the transaction holds the file decoded (what it added is read
// from memory with the rest), nor for a reference workspace's content, nor
// with NoIndex.
func (tx *Tx) IndexUsable(rel string) bool {
	return !tx.decodedFile(rel) && tx.ref == nil && !tx.NoIndex
}

// Exclusive reports whether the transaction holds the workspace
// exclusively (Begin(true)): only then may it write derived files.
func (tx *Tx) Exclusive() bool { return tx.exclusive }

// ReadDerivedDir lists a directory of derived files.
func (tx *Tx) ReadDerivedDir(dir string) ([]os.DirEntry, error) { return os.ReadDir(tx.l.path(dir)) }

// OpenDerived opens a derived file for reading, never through a link.
func (tx *Tx) OpenDerived(rel string) (*os.File, error) { return openRead(tx.l.path(rel)) }

// WriteDerivedNow writes a derived file whole, synced, through a new file
// renamed into place (a link at rel is replaced, never followed), making
// its directory if need be. It writes at once, outside any commit: for a
// transaction holding the workspace exclusively, keeping an index that is
// rebuilt whenever it does not match.
func (tx *Tx) WriteDerivedNow(rel string, data []byte) error {
	dir := path.Dir(rel)
	if err := tx.l.realDirs(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(tx.l.path(dir), DirPerm); err != nil {
		return fault.Internal(err, "create %s", dir)
	}
	if err := replaceFile(tx.l.path(rel), data, true); err != nil {
		return fault.Internal(err, "write %s", rel)
	}
	return nil
}

// RemoveDerived removes a derived file, if it is there.
func (tx *Tx) RemoveDerived(rel string) { os.Remove(tx.l.path(rel)) }

// ScanLines calls fn for every complete line of a data file from the byte
// offset off, with its newline, until fn returns false; a torn last line
// is not a line. A file that is not there has none.
func (tx *Tx) ScanLines(rel string, off int64, fn func(line []byte) bool) error {
	return scanLinesFrom(tx.l.path(rel), off, fn)
}

// Add returns the sum of the file with one more line (with its newline).
func (s FileSum) Add(line []byte) FileSum { return s.add(line) }

// LineName names a data file's line n (from 1) in an error, as the
// readers of the data files do.
func LineName(rel string, n int) string { return relLine(rel, n) }
