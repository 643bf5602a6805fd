package workspace

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// Reading data files without decoding them all: a call that needs the
// newest entries reads the file's tail, and a search scores every line
// undecoded (knowledge.Prepared) and decodes only the lines it returns.
// Both see exactly the lines readJSONL would return: complete (a torn last
// line was never committed), not blank.

// readTail returns the last n complete, non-blank lines of a file, reading
// backwards from its end in growing chunks. lines, when known (> 0), is
// how many lines the file holds: the first chunk is sized for n of them.
func readTail(l *Workspace, rel string, n, lines int) ([][]byte, error) {
	if n <= 0 {
		return nil, nil
	}
	f, err := openRead(l.path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fault.Internal(err, "open %s", rel)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fault.Internal(err, "stat %s", rel)
	}
	start := st.Size()
	chunk := int64(16 << 10)
	if lines > 0 {
		chunk = max(chunk, start/int64(lines)*int64(n)*5/4)
	}
	var buf []byte
	for {
		from := max(0, start-chunk)
		b := make([]byte, int(start-from)+len(buf))
		if _, err := f.ReadAt(b[:start-from], from); err != nil && err != io.EOF {
			return nil, fault.Internal(err, "read %s", rel)
		}
		copy(b[start-from:], buf)
		buf, start = b, from
		var found [][]byte
		if last := bytes.LastIndexByte(buf, '\n'); last >= 0 {
			region := buf[:last+1]
			if start > 0 { // the first line may begin before the chunk
				region = region[bytes.IndexByte(region, '\n')+1:]
			}
			for len(region) > 0 {
				i := bytes.IndexByte(region, '\n')
				if line := region[:i]; len(bytes.TrimSpace(line)) > 0 {
					found = append(found, line)
				}
				region = region[i+1:]
			}
		}
		if len(found) >= n || start == 0 {
			return found[max(0, len(found)-n):], nil
		}
		chunk *= 4
	}
}

// lastLine returns the last newline-terminated line of a file of the given
// size and the offset just past it, reading backwards in growing chunks. A
// torn line after it (no newline) is not part of the file's committed
// content, so the offset excludes it. With limit > 0 it reads at most the
// last limit bytes: when the last line is longer, line is nil and tail
// holds those bytes up to and including the last newline.
func lastLine(f *os.File, size, limit int64) (line []byte, end int64, tail []byte, err error) {
	chunk := int64(4096)
	for size > 0 {
		if limit > 0 {
			chunk = min(chunk, limit)
		}
		start := max(0, size-chunk)
		buf := make([]byte, size-start)
		if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
			return nil, 0, nil, fault.Internal(err, "read %s", f.Name())
		}
		nl := bytes.LastIndexByte(buf, '\n')
		if nl >= 0 {
			if i := bytes.LastIndexByte(buf[:nl], '\n'); i >= 0 || start == 0 {
				return buf[i+1 : nl], start + int64(nl) + 1, nil, nil
			}
		} else if start == 0 {
			return nil, 0, nil, nil
		}
		if limit > 0 && chunk == limit {
			if nl >= 0 {
				return nil, start + int64(nl) + 1, buf[:nl+1], nil
			}
			limit = 0 // a torn tail longer than the limit: read on
		}
		chunk *= 4
	}
	return nil, 0, nil, nil
}

// An entryReader reads and decodes entries of one data file at the
// offsets an index gives, opening the file once, at the first read: a
// search reads its best hits, and ties can make them many.
type entryReader struct {
	l   *Workspace
	rel string
	f   *os.File
}

// read returns the entry whose line, of length n, is at off.
func (r *entryReader) read(off int64, n int) (pyjson.Value, error) {
	if r.f == nil {
		f, err := openRead(r.l.path(r.rel))
		if err != nil {
			return pyjson.Value{}, fault.Internal(err, "open %s", r.rel)
		}
		r.f = f
	}
	buf := make([]byte, n)
	if _, err := r.f.ReadAt(buf, off); err != nil {
		return pyjson.Value{}, fault.Internal(err, "read %s", r.rel)
	}
	v, err := pyjson.Parse(buf)
	if err != nil {
		return pyjson.Value{}, fault.Corrupt(err, r.rel)
	}
	return v, nil
}

// close closes the file, if a read opened it.
func (r *entryReader) close() {
	if r.f != nil {
		r.f.Close()
	}
}

// decodeTail decodes the lines of a file's tail. A line that does not
// parse is reported as readJSONL reports it, with its line number.
func decodeTail(l *Workspace, rel string, lines [][]byte) ([]pyjson.Value, error) {
	out := make([]pyjson.Value, 0, len(lines))
	for _, line := range lines {
		v, err := pyjson.Parse(line)
		if err != nil {
			if _, ferr := readJSONL(l, rel); ferr != nil {
				return nil, ferr
			}
			return nil, fault.Corrupt(err, rel)
		}
		out = append(out, v)
	}
	return out, nil
}

// decodedFile reports whether the transaction reads rel decoded and
// whole: it has loaded it already (a reference workspace's are loaded from
// the start).
func (tx *Tx) decodedFile(rel string) bool {
	_, loaded := tx.lists[rel]
	return loaded
}

// Search returns the entries of a data file (with what this transaction
// added) that a search returning max hits could return, in file order:
// the index's features of every entry are scored by p (as entries of kind
// k), and only the best max entries, with any tied with the last of them,
// are read and decoded. With window > 0 only the last window entries are
// searched. The caller runs the search itself on the candidates, so its
// hits, scores and order are exactly those of a search over every entry.
// Without a current index, every entry is a candidate. Search never
// writes: call RefreshIndex first to have a stale index rebuilt.
func (tx *Tx) Search(rel string, window, max int, p *knowledge.Prepared, k knowledge.Kind) ([]pyjson.Value, error) {
	fallback := func() ([]pyjson.Value, error) {
		if window > 0 {
			return tx.Tail(rel, window)
		}
		return tx.List(rel)
	}
	if tx.decodedFile(rel) || !tx.indexed(rel) {
		return fallback()
	}
	var lines [][]byte
	added := tx.added[rel]
	entries := tx.Meta.Files[rel].Lines // one index line each
	if window > 0 && window-len(added) < entries {
		added = added[len(added)-min(window, len(added)):]
		var err error
		if lines, err = readTail(tx.l, indexRel(rel), window-len(added), entries); err != nil {
			return nil, err
		}
	} else {
		data, err := readFile(tx.l.path(indexRel(rel)))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fault.Internal(err, "read %s", indexRel(rel))
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
	}
	hits, ok := scoreLines(lines, p, k)
	if !ok {
		tx.indexDamaged(rel)
		return fallback()
	}
	for i, v := range added {
		if score, ok := p.ScoreEntry(k, v); ok {
			hits = append(hits, knowledge.RawHit{Index: len(lines) + i, Score: score})
		}
	}
	out := []pyjson.Value{}
	r := entryReader{l: tx.l, rel: rel}
	defer r.close()
	for _, i := range knowledge.TopRaw(hits, max) {
		if i >= len(lines) {
			out = append(out, added[i-len(lines)])
			continue
		}
		l, err := location(lines[i])
		if err != nil {
			// The index is derived: a damaged one is not used (and is
			// rebuilt after the commit of a call that can write).
			tx.indexDamaged(rel)
			return fallback()
		}
		v, err := r.read(l.off, l.n)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// parallelScoring is the number of index lines from which scoreLines
// splits them between two goroutines. Scoring is most of a consult at
// scale (10,000 methodology entries) and needs nothing but the lines; below
// this, starting a goroutine costs more than it saves.
const parallelScoring = 2048

// scoreLines scores index lines (location, tab, features) with p as
// entries of kind k and returns the hits in line order, exactly as scoring
// them one after another does; false when a line has no features (a
// damaged index). Many lines are scored in two halves at once, the second
// with a clone of p.
func scoreLines(lines [][]byte, p *knowledge.Prepared, k knowledge.Kind) ([]knowledge.RawHit, bool) {
	score := func(p *knowledge.Prepared, lines [][]byte, first int) ([]knowledge.RawHit, bool) {
		var hits []knowledge.RawHit
		for i, line := range lines {
			tab := bytes.IndexByte(line, '\t')
			if tab < 0 {
				return nil, false
			}
			if score, ok := p.Score(k, line[tab+1:]); ok {
				hits = append(hits, knowledge.RawHit{Index: first + i, Score: score})
			}
		}
		return hits, true
	}
	if len(lines) < parallelScoring || runtime.GOMAXPROCS(0) < 2 {
		return score(p, lines, 0)
	}
	half := len(lines) / 2
	var second []knowledge.RawHit
	var secondOK bool
	done := make(chan struct{})
	clone := p.Clone()
	go func() {
		defer close(done)
		second, secondOK = score(clone, lines[half:], half)
	}()
	first, firstOK := score(p, lines[:half], 0)
	<-done
	if !firstOK || !secondOK {
		return nil, false
	}
	return append(first, second...), true
}

// entryLoc is where an entry is in its data file.
type entryLoc struct {
	off int64
	n   int
}

// location reads where an index line's entry is: its first field,
// "OFFSET LENGTH".
func location(line []byte) (entryLoc, error) {
	var l entryLoc
	head, _, _ := bytes.Cut(line, []byte{'\t'})
	a, b, ok := bytes.Cut(head, []byte{' '})
	off, err1 := strconv.ParseInt(string(a), 10, 64)
	n, err2 := strconv.Atoi(string(b))
	if !ok || err1 != nil || err2 != nil || off < 0 || n <= 0 {
		return l, errors.New("an index line with a bad location")
	}
	l.off, l.n = off, n
	return l, nil
}

// RawTail is Tail for a caller that only writes the entries out
// (export): at most the last n entries of a data file, with what this
// transaction added, as an array of their JSON text (pyjson.RawItems),
// each checked to parse but none kept decoded. An export at 10,000
// entries holds their 12 MB of text instead of about 40 MB of decoded
// values.
func (tx *Tx) RawTail(rel string, n int) (pyjson.Value, error) {
	if tx.decodedFile(rel) || len(tx.added[rel]) > 0 {
		v, err := tx.Tail(rel, n)
		return pyjson.ArrayValue(v), err
	}
	var lines [][]byte
	var err error
	if total := tx.Meta.Files[rel].Lines; n >= total {
		lines, err = readLines(tx.l, rel)
	} else {
		lines, err = readTail(tx.l, rel, n, total)
	}
	if err != nil {
		return pyjson.Value{}, err
	}
	v, err := pyjson.RawItems(lines[max(0, len(lines)-n):])
	if err != nil {
		// Name the line as readJSONL does.
		if _, ferr := readJSONL(tx.l, rel); ferr != nil {
			return pyjson.Value{}, ferr
		}
		return pyjson.Value{}, fault.Corrupt(err, rel)
	}
	return v, nil
}
