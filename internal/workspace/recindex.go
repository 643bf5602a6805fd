package workspace

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// The record index's files: finding and proving the chain of segments,
// reading the tail, and growing the index (see records.go).

// recordView returns the transaction's view of the model log, reading it
// on first use (and growing the index when the transaction may write).
func (tx *Tx) recordView() (*recordView, error) {
	if tx.records != nil {
		return tx.records, nil
	}
	if tx.recordDrops > maxRecordDrops {
		return tx.viewFrom(nil)
	}
	return tx.viewFrom(tx.recChain())
}

// maxRecordDrops bounds how often a transaction drops damaged segments:
// past it (a disk that keeps returning bad bytes), it reads the log alone
// and writes no segment.
const maxRecordDrops = 8

// viewFrom builds the view on the chain given, or on as much of it as the
// log proves, and keeps it (tx.records).
func (tx *Tx) viewFrom(chain []*recSegment) (*recordView, error) {
	committed := tx.Meta.Files[RelModelLog]
	for {
		v, err := readRecordTail(tx.l, chain, committed)
		if errors.Is(err, errChainBroken) && len(chain) > 0 {
			chain[len(chain)-1].close()
			chain = chain[:len(chain)-1]
			continue
		}
		if err != nil {
			for _, s := range chain {
				s.close()
			}
			return nil, err
		}
		tx.records = v
		if tx.exclusive && tx.recordDrops <= maxRecordDrops && (v.tailLines > recTailLines || v.tailBytes > recTailBytes) {
			// Best effort: the index is derived, and a view that cannot
			// grow it reads its tail from memory.
			if i, err := tx.growRecords(v); errors.Is(err, errSegment) && i >= 0 {
				return tx.records, tx.dropSegments(i)
			}
		}
		return tx.records, nil
	}
}

// dropSegments stops using segment i of the chain, found damaged, and
// those after it: their lines are read from the log instead.
func (tx *Tx) dropSegments(i int) error {
	v := tx.records
	for _, s := range v.segs[i:] {
		s.close()
	}
	tx.records = nil
	if tx.recordDrops++; tx.recordDrops > maxRecordDrops {
		v.close()
		_, err := tx.viewFrom(nil)
		return err
	}
	_, err := tx.viewFrom(slices.Clip(v.segs[:i]))
	return err
}

func (tx *Tx) closeRecords() {
	if tx.records != nil {
		tx.records.close()
		tx.records = nil
	}
}

// recChain opens the segments that link from line 0 (at each step the
// longest that starts where the chain ends, with its hash and offset),
// none past the committed lines.
func (tx *Tx) recChain() []*recSegment {
	lines := tx.Meta.Files[RelModelLog].Lines
	entries, err := os.ReadDir(tx.l.path(RelRecordsDir))
	if err != nil {
		return nil
	}
	type cand struct {
		name       string
		start, end int
	}
	var cands []cand
	for _, e := range entries {
		if start, end, ok := recSegmentName(e.Name()); ok && end <= lines {
			cands = append(cands, cand{e.Name(), start, end})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	if len(cands) == 0 || tx.l.realDirs(RelRecordsDir) != nil {
		return nil
	}
	var chain []*recSegment
	at, hash, off := 0, "", int64(0)
	for _, c := range cands {
		if c.start != at {
			continue
		}
		s, err := openRecSegment(tx.l.path(RelRecordsDir + "/" + c.name))
		if err != nil {
			continue
		}
		if m := s.meta; m.Start != c.start || m.End != c.end || m.HashBefore != hash || m.StartOff != off {
			s.close()
			continue
		}
		chain = append(chain, s)
		at, hash, off = s.meta.End, s.meta.HashAt, s.meta.EndOff
	}
	return chain
}

// recSegmentName reads START-END.rec.
func recSegmentName(name string) (start, end int, ok bool) {
	rest, ok := strings.CutSuffix(name, ".rec")
	a, b, ok2 := strings.Cut(rest, "-")
	start, err1 := atoiStrict(a)
	end, err2 := atoiStrict(b)
	if !ok || !ok2 || err1 != nil || err2 != nil || end <= start {
		return 0, 0, false
	}
	return start, end, true
}

func recSegmentFile(start, end int) string {
	return strconv.Itoa(start) + "-" + strconv.Itoa(end) + ".rec"
}

// readRecordTail reads the committed lines of the model log after the
// chain: their hashes must lead from the chain's last to the committed
// file sum (errChainBroken if not, or damage of kind corrupt when there is
// no chain), and only then are they parsed, into what they do to each key
// (its newest set and the merges after it).
func readRecordTail(l *Workspace, chain []*recSegment, committed FileSum) (*recordView, error) {
	v := &recordView{segs: chain, tail: map[string]tailRecord{}}
	sum, off := FileSum{}, int64(0)
	if n := len(chain); n > 0 {
		m := chain[n-1].meta
		sum, off = FileSum{Lines: m.End, Hash: m.HashAt}, m.EndOff
	}
	v.tailMeta = recordMeta{Start: sum.Lines, StartOff: off, HashBefore: sum.Hash}
	broken := func(what string) error {
		if len(chain) > 0 {
			return errChainBroken
		}
		return fault.Corrupt(errors.New(what), RelModelLog)
	}
	if sum.Lines == committed.Lines {
		if sum.Hash != committed.Hash {
			return nil, broken("it does not hold what was committed")
		}
		return v, nil
	}
	f, err := openRead(l.path(RelModelLog))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, broken("it is missing")
	}
	if err != nil {
		return nil, fault.Internal(err, "open %s", RelModelLog)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fault.Internal(err, "stat %s", RelModelLog)
	}
	if off > st.Size() {
		return nil, broken("it is shorter than what was committed")
	}
	data := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(data, off); err != nil && err != io.EOF {
		return nil, fault.Internal(err, "read %s", RelModelLog)
	}
	var lines [][]byte
	pos := 0
	for sum.Lines < committed.Lines {
		i := bytes.IndexByte(data[pos:], '\n')
		if i < 0 {
			break
		}
		sum = sum.add(data[pos : pos+i+1])
		lines = append(lines, data[pos:pos+i])
		pos += i + 1
	}
	if sum != committed {
		return nil, broken("it does not hold what was committed")
	}
	for n, line := range lines {
		_, recs, err := parseModelLine(line)
		if err != nil {
			return nil, fault.Corrupt(err, relLine(RelModelLog, v.tailMeta.Start+n+1))
		}
		for _, r := range recs {
			if !r.Merge {
				v.tail[r.Key] = tailRecord{set: true, value: r.Value}
				continue
			}
			t := v.tail[r.Key]
			t.merges = append(t.merges, r.Value)
			v.tail[r.Key] = t
		}
	}
	v.tailLines, v.tailBytes = len(lines), int64(pos)
	v.tailMeta.End, v.tailMeta.EndOff, v.tailMeta.HashAt = committed.Lines, off+int64(pos), committed.Hash
	return v, nil
}

// growRecords writes the tail as a segment (each key's value whole, the
// tail's merges applied to the segments'), merges the last segments while
// the last covers at least a quarter of the lines of the one before, and
// removes the files of the index the chain does not use. A segment found
// damaged while merging is errSegment, with its place in the chain.
func (tx *Tx) growRecords(v *recordView) (damaged int, err error) {
	l := tx.l
	if err := l.realDirs(RelRecordsDir); err != nil {
		return -1, err
	}
	if err := os.MkdirAll(l.path(RelRecordsDir), DirPerm); err != nil {
		return -1, err
	}
	sync := !l.opts.NoSync
	m := v.tailMeta
	keys := make([]string, 0, len(v.tail))
	for k := range v.tail {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	bad := -1
	s, err := tx.writeRecSegment(m, sync, func(add func(string, []byte) error) error {
		for _, k := range keys {
			t := v.tail[k]
			var below []byte
			for i := len(v.segs) - 1; i >= 0 && !t.set && len(t.merges) > 0; i-- {
				val, ok, err := v.segs[i].lookup(k)
				if err != nil {
					bad = i
					return err
				}
				if ok {
					below = val
					break
				}
			}
			val := v.resolve(k, t, below) // whole: the segment holds no merges
			if m.Start == 0 && string(val) == "null" {
				continue // nothing older to hide
			}
			if err := add(k, val); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return bad, err
	}
	v.segs = append(v.segs, s)
	v.tail, v.tailLines, v.tailBytes = map[string]tailRecord{}, 0, 0
	v.tailMeta = recordMeta{Start: m.End, StartOff: m.EndOff, HashBefore: m.HashAt}
	for len(v.segs) >= 2 {
		n := len(v.segs)
		a, b := v.segs[n-2], v.segs[n-1]
		if 4*(b.meta.End-b.meta.Start) < a.meta.End-a.meta.Start {
			break
		}
		mm := recordMeta{Start: a.meta.Start, End: b.meta.End, StartOff: a.meta.StartOff, EndOff: b.meta.EndOff,
			HashBefore: a.meta.HashBefore, HashAt: b.meta.HashAt}
		bad = -1
		merged, err := tx.writeRecSegment(mm, sync, func(add func(string, []byte) error) error {
			bad2, err := mergeRecSegments(a, b, mm.Start == 0, add)
			if bad2 >= 0 {
				bad = n - 2 + bad2
			}
			return err
		})
		if err != nil {
			return bad, err
		}
		a.close()
		b.close()
		v.segs = append(v.segs[:n-2], merged)
	}
	keep := map[string]bool{}
	for _, s := range v.segs {
		keep[s.name] = true
	}
	if dir, err := os.ReadDir(l.path(RelRecordsDir)); err == nil {
		for _, e := range dir {
			_, _, ok := recSegmentName(e.Name())
			if (ok || strings.HasPrefix(e.Name(), ".")) && !keep[e.Name()] && e.Type().IsRegular() {
				os.Remove(l.path(RelRecordsDir + "/" + e.Name()))
			}
		}
	}
	return -1, nil
}

// writeRecSegment writes a segment of the index and opens it.
func (tx *Tx) writeRecSegment(m recordMeta, sync bool, records func(add func(string, []byte) error) error) (*recSegment, error) {
	path := tx.l.path(RelRecordsDir + "/" + recSegmentFile(m.Start, m.End))
	if err := writeRecSegment(path, m, sync, records); err != nil {
		return nil, err
	}
	return openRecSegment(path)
}

// mergeRecSegments calls add for the records of a and of the newer b in
// key order, b's value where both have a key, leaving out deletions when
// drop is set. A damaged segment is errSegment, with which (0 for a, 1 for
// b).
func mergeRecSegments(a, b *recSegment, drop bool, add func(string, []byte) error) (int, error) {
	i, j := 0, 0
	var ka, va, kb, vb []byte
	var err error
	read := func(s *recSegment, at int) ([]byte, []byte, error) {
		if at >= s.n {
			return nil, nil, nil
		}
		return s.record(at, true)
	}
	if ka, va, err = read(a, i); err != nil {
		return 0, err
	}
	if kb, vb, err = read(b, j); err != nil {
		return 1, err
	}
	for i < a.n || j < b.n {
		var k, val []byte
		c := 0
		switch {
		case i >= a.n:
			c = 1
		case j >= b.n:
			c = -1
		default:
			c = strings.Compare(string(ka), string(kb))
		}
		if c < 0 {
			k, val = ka, va
		} else {
			k, val = kb, vb
		}
		if !drop || string(val) != "null" {
			if err := add(string(k), val); err != nil {
				return -1, err
			}
		}
		if c <= 0 {
			i++
			if ka, va, err = read(a, i); err != nil {
				return 0, err
			}
		}
		if c >= 0 {
			j++
			if kb, vb, err = read(b, j); err != nil {
				return 1, err
			}
		}
	}
	return -1, nil
}

// errChainBroken: the lines after the segments' chain do not lead to the
// committed file sum (the message is the one the term index, which had
// the same rule, gave it first).
var errChainBroken = errors.New("the term index does not describe the data file")
