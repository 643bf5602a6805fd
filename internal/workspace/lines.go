package workspace

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
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
		return l, errBadLocation
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
