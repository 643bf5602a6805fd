package workspace

import (
	"bytes"
	"errors"
	"io/fs"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// What a search above storage reads of the index (package search scores
// it): the index lines of a data file, the capabilities' lists, and the
// entries they locate. Storage proves the index describes the committed
// files (IndexCurrent); what a line's features mean is the caller's.

// IndexLines returns the index lines of a data file's committed entries,
// one per entry in file order, each "OFFSET LENGTH", a tab, then the
// entry's features: the last n of them, or all when n < 0. ok is false
// when the index cannot answer (the transaction holds the file decoded,
// or the index is not current): the caller then reads the entries.
func (tx *Tx) IndexLines(rel string, n int) (lines [][]byte, ok bool, err error) {
	if tx.decodedFile(rel) || !tx.indexed(rel) {
		return nil, false, nil
	}
	entries := tx.Meta.Files[rel].Lines // one index line each
	if n >= 0 && n < entries {
		lines, err := readTail(tx.l, indexRel(rel), n, entries)
		return lines, err == nil, err
	}
	data, err := readFile(tx.l.path(indexRel(rel)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, false, fault.Internal(err, "read %s", indexRel(rel))
	}
	if i := bytes.LastIndexByte(data, '\n'); i < len(data)-1 {
		data = data[:i+1] // a torn line was never committed
	}
	lines = make([][]byte, 0, entries)
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if len(bytes.TrimSpace(data[:i])) > 0 {
			lines = append(lines, data[:i])
		}
		data = data[i+1:]
	}
	return lines, true, nil
}

// Added returns the entries this transaction queued for a data file, in
// the order queued. The caller must not change them.
func (tx *Tx) Added(rel string) []pyjson.Value { return tx.added[rel] }

// IndexDamaged marks rel's index as not to be used for the rest of the
// transaction, after a search found it damaged (a line without features,
// a bad location); a call that can write rebuilds it after its commit.
func (tx *Tx) IndexDamaged(rel string) { tx.indexDamaged(rel) }

// A Posting is a methodology entry on a capability's list: where its line
// is in the file, and its date.
type Posting struct {
	Off  int64
	N    int
	Date string
}

// CapabilityPostings returns the list of the manifest's i-th capability,
// in file order; an error of kind corrupt when the list is damaged. The
// caller checks IndexCurrent(RelMethodology) first.
func (tx *Tx) CapabilityPostings(i int) ([]Posting, error) {
	ps, err := tx.readCapPostings(i)
	if err != nil {
		return nil, err
	}
	out := make([]Posting, len(ps))
	for j, p := range ps {
		out[j] = Posting{Off: p.off, N: p.n, Date: p.date}
	}
	return out, nil
}

// An EntryReader reads the entries of one data file at the places an
// index gives, opening the file once, at the first read. Close it.
type EntryReader struct{ r entryReader }

// EntryReader returns a reader of rel's committed entries.
func (tx *Tx) EntryReader(rel string) *EntryReader {
	return &EntryReader{entryReader{l: tx.l, rel: rel}}
}

// Read returns the entry whose line, of length n, is at off.
func (r *EntryReader) Read(off int64, n int) (pyjson.Value, error) { return r.r.read(off, n) }

// ReadIndexed returns the entry an index line (IndexLines) locates. A bad
// location is errBadLocation, which IsBadLocation reports: the index is
// damaged, not the data file.
func (r *EntryReader) ReadIndexed(line []byte) (pyjson.Value, error) {
	l, err := location(line)
	if err != nil {
		return pyjson.Value{}, err
	}
	return r.r.read(l.off, l.n)
}

// IsBadLocation reports whether err is ReadIndexed's for an index line
// whose location does not parse.
func IsBadLocation(err error) bool { return errors.Is(err, errBadLocation) }

var errBadLocation = errors.New("an index line with a bad location")

// Close closes the file, if a read opened it.
func (r *EntryReader) Close() { r.r.close() }
