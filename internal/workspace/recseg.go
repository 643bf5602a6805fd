package workspace

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/google/renameio/v2"
)

// A record segment holds, sorted by key, the newest value of every key set
// in some lines of the model log, and is searched where it lies: a lookup
// binary-searches its table of offsets and reads the few records it
// probes, never the whole file. Its bytes (integers little-endian):
//
//	header  "UCSREC1\n"  n (uint64)  TABLE (uint64)  META_LEN (uint32)
//	        CRC-32C of the 28 bytes before it and the meta (uint32)
//	meta    META_LEN bytes: what the segment covers (recordMeta)
//	records record i: KEY_CRC (uint32) VALUE_CRC (uint32) len(key)
//	        (uvarint) key value; sorted by key, keys distinct
//	table   at TABLE, n+1 offsets (uint64): record i's, then TABLE itself,
//	        which is where the file ends after the table
//
// KEY_CRC is the CRC-32C of i (uint64) and the record's bytes from its
// key's length to its key's end, VALUE_CRC of i and the value: a record
// proves its place in the table and its content when it is read, so every
// byte of the file is checked where it is used, and a lookup checks only
// what it reads. Damage (a byte changed, a file cut short) is errSegment,
// and the caller stops using the segment.
const (
	recMagic      = "UCSREC1\n"
	recHeaderSize = 32
)

// errSegment: a segment's bytes are not what its writer wrote.
var errSegment = errors.New("a record segment is damaged")

// castagnoli is CRC-32C's slicing-by-8 tables, made at first use (a few
// microseconds). Not the standard library's crc32.MakeTable(crc32.Castagnoli):
// with it the library also builds the tables of its SSE4.2 code, about
// 0.2 ms, which every call paid at start-up, and a call that reads a
// record segment checks a few KB, where slicing by 8 is as good.
var castagnoli = sync.OnceValue(func() *[8]crc32.Table {
	t := new([8]crc32.Table)
	for i := range t[0] {
		c := uint32(i)
		for range 8 {
			if c&1 == 1 {
				c = c>>1 ^ crc32.Castagnoli
			} else {
				c >>= 1
			}
		}
		t[0][i] = c
	}
	for i := range t[0] {
		c := t[0][i]
		for j := 1; j < 8; j++ {
			c = t[0][c&0xff] ^ c>>8
			t[j][i] = c
		}
	}
	return t
})

// crc32c is the CRC-32C of p, continuing crc (0 to start): eight bytes a
// step, then the rest a byte at a time (the standard library's slicing by
// 8, on its tables for CRC-32C).
func crc32c(crc uint32, p []byte) uint32 {
	t := castagnoli()
	crc = ^crc
	for ; len(p) >= 8; p = p[8:] {
		crc ^= binary.LittleEndian.Uint32(p)
		crc = t[0][p[7]] ^ t[1][p[6]] ^ t[2][p[5]] ^ t[3][p[4]] ^
			t[4][crc>>24] ^ t[5][crc>>16&0xff] ^ t[6][crc>>8&0xff] ^ t[7][crc&0xff]
	}
	for _, b := range p {
		crc = t[0][byte(crc)^b] ^ crc>>8
	}
	return ^crc
}

// A recSegment is an open record segment: its bytes (mapped, see mapFile)
// and what its header says.
type recSegment struct {
	name  string
	data  []byte
	unmap func() error
	n     int
	table int
	meta  recordMeta
}

// recordMeta is what a segment covers: the model log's lines START to END
// (from 0, END excluded), at byte offsets StartOff to EndOff, and the
// log's chain hashes before its first line and after its last. It is
// written as "START END START_OFF END_OFF HASH_BEFORE HASH_AFTER", an
// empty hash (before line 0) as "-".
type recordMeta struct {
	Start, End         int
	StartOff, EndOff   int64
	HashBefore, HashAt string
}

func (m recordMeta) bytes() []byte {
	before := m.HashBefore
	if before == "" {
		before = "-"
	}
	return fmt.Appendf(nil, "%d %d %d %d %s %s", m.Start, m.End, m.StartOff, m.EndOff, before, m.HashAt)
}

func parseRecordMeta(b []byte) (recordMeta, bool) {
	f := strings.Fields(string(b))
	if len(f) != 6 {
		return recordMeta{}, false
	}
	var m recordMeta
	var err [4]error
	m.Start, err[0] = atoiStrict(f[0])
	m.End, err[1] = atoiStrict(f[1])
	var so, eo int
	so, err[2] = atoiStrict(f[2])
	eo, err[3] = atoiStrict(f[3])
	m.StartOff, m.EndOff = int64(so), int64(eo)
	m.HashBefore, m.HashAt = f[4], f[5]
	if m.HashBefore == "-" {
		m.HashBefore = ""
	}
	ok := errors.Join(err[:]...) == nil && m.Start < m.End && m.StartOff < m.EndOff &&
		(m.HashBefore == "") == (m.Start == 0) && (m.Start == 0 || len(m.HashBefore) == 64) && len(m.HashAt) == 64
	return m, ok && string(m.bytes()) == string(b)
}

// atoiStrict reads a non-negative decimal integer without sign or
// leading zeros.
func atoiStrict(s string) (int, error) {
	if s == "" || len(s) > 18 || (len(s) > 1 && s[0] == '0') || strings.Trim(s, "0123456789") != "" {
		return 0, errors.New("not a non-negative integer")
	}
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n, nil
}

// parseRecSegment checks a segment's header and meta, and that its table
// fits the file, and returns it (data is not copied).
func parseRecSegment(data []byte) (*recSegment, error) {
	if len(data) < recHeaderSize || string(data[:8]) != recMagic {
		return nil, errSegment
	}
	n := binary.LittleEndian.Uint64(data[8:])
	table := binary.LittleEndian.Uint64(data[16:])
	mlen := uint64(binary.LittleEndian.Uint32(data[24:]))
	size := uint64(len(data))
	if mlen > size-recHeaderSize || n > size/8 || table < recHeaderSize+mlen || table > size || size-table != 8*(n+1) {
		return nil, errSegment
	}
	c := crc32c(crc32c(0, data[:28]), data[recHeaderSize:recHeaderSize+mlen])
	if c != binary.LittleEndian.Uint32(data[28:]) {
		return nil, errSegment
	}
	m, ok := parseRecordMeta(data[recHeaderSize : recHeaderSize+mlen])
	if !ok {
		return nil, errSegment
	}
	return &recSegment{data: data, n: int(n), table: int(table), meta: m}, nil
}

// record reads record i, checking its key (and its value when withValue):
// the key, and the value's bytes (in the segment's memory, not copied).
func (s *recSegment) record(i int, withValue bool) (key, value []byte, err error) {
	if i < 0 || i >= s.n {
		return nil, nil, errSegment
	}
	at := s.table + 8*i
	start := binary.LittleEndian.Uint64(s.data[at:])
	end := binary.LittleEndian.Uint64(s.data[at+8:])
	if start < uint64(recHeaderSize) || end > uint64(s.table) || start > end || end-start < 9 {
		return nil, nil, errSegment
	}
	rec := s.data[start:end]
	klen, w := binary.Uvarint(rec[8:])
	if w <= 0 || klen > uint64(len(rec)-8-w) {
		return nil, nil, errSegment
	}
	keyEnd := 8 + w + int(klen)
	var idx [8]byte
	binary.LittleEndian.PutUint64(idx[:], uint64(i))
	if crc32c(crc32c(0, idx[:]), rec[8:keyEnd]) != binary.LittleEndian.Uint32(rec) {
		return nil, nil, errSegment
	}
	key, value = rec[8+w:keyEnd], rec[keyEnd:]
	if withValue && crc32c(crc32c(0, idx[:]), value) != binary.LittleEndian.Uint32(rec[4:]) {
		return nil, nil, errSegment
	}
	return key, value, nil
}

// lookup finds key by binary search: its value (in the segment's memory)
// and whether it is there.
func (s *recSegment) lookup(key string) ([]byte, bool, error) {
	lo, hi := 0, s.n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		k, _, err := s.record(mid, false)
		if err != nil {
			return nil, false, err
		}
		// Conversions in comparisons do not copy: strings.Compare would.
		switch {
		case string(k) == key:
			_, v, err := s.record(mid, true)
			return v, err == nil, err
		case string(k) < key:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return nil, false, nil
}

// verify reads every record and checks the keys are in order: a segment
// that passes is whole.
func (s *recSegment) verify() error {
	var last []byte
	for i := range s.n {
		k, _, err := s.record(i, true)
		if err != nil {
			return err
		}
		if i > 0 && bytes.Compare(last, k) >= 0 {
			return errSegment
		}
		last = k
	}
	return nil
}

func (s *recSegment) close() {
	if s.unmap != nil {
		s.unmap()
		s.unmap = nil
	}
	s.data = nil
}

// openRecSegment opens a segment file of the record index: mapped, its
// header checked (the caller checks what it covers).
func openRecSegment(path string) (*recSegment, error) {
	f, err := openRead(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	data, unmap, err := mapFile(f, st.Size())
	if err != nil {
		return nil, err
	}
	s, err := parseRecSegment(data)
	if err != nil {
		unmap()
		return nil, err
	}
	s.name, s.unmap = filepath.Base(path), unmap
	return s, nil
}

// A recSegmentWriter writes a segment's records, in key order, to w; the
// header, written last, goes at offset 0 of the file (see finish).
type recSegmentWriter struct {
	w       *bufio.Writer
	off     uint64
	offsets []uint64
	last    string
	buf     []byte
}

func newRecSegmentWriter(w *bufio.Writer, meta []byte) (*recSegmentWriter, error) {
	sw := &recSegmentWriter{w: w}
	var head [recHeaderSize]byte
	if _, err := w.Write(head[:]); err != nil {
		return nil, err
	}
	if _, err := w.Write(meta); err != nil {
		return nil, err
	}
	sw.off = uint64(recHeaderSize + len(meta))
	return sw, nil
}

// add writes the next record; keys must come in increasing order.
func (sw *recSegmentWriter) add(key string, value []byte) error {
	i := len(sw.offsets)
	if i > 0 && key <= sw.last {
		return errors.New("record segment: keys out of order")
	}
	sw.last = key
	var idx [8]byte
	binary.LittleEndian.PutUint64(idx[:], uint64(i))
	b := append(sw.buf[:0], make([]byte, 8)...)
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	binary.LittleEndian.PutUint32(b, crc32c(crc32c(0, idx[:]), b[8:]))
	binary.LittleEndian.PutUint32(b[4:], crc32c(crc32c(0, idx[:]), value))
	b = append(b, value...)
	sw.buf = b
	if _, err := sw.w.Write(b); err != nil {
		return err
	}
	sw.offsets = append(sw.offsets, sw.off)
	sw.off += uint64(len(b))
	return nil
}

// finish writes the table and returns the header for offset 0.
func (sw *recSegmentWriter) finish(meta []byte) ([]byte, error) {
	table := sw.off
	var b [8]byte
	for _, o := range append(sw.offsets, table) {
		binary.LittleEndian.PutUint64(b[:], o)
		if _, err := sw.w.Write(b[:]); err != nil {
			return nil, err
		}
	}
	if err := sw.w.Flush(); err != nil {
		return nil, err
	}
	head := make([]byte, recHeaderSize)
	copy(head, recMagic)
	binary.LittleEndian.PutUint64(head[8:], uint64(len(sw.offsets)))
	binary.LittleEndian.PutUint64(head[16:], table)
	binary.LittleEndian.PutUint32(head[24:], uint32(len(meta)))
	binary.LittleEndian.PutUint32(head[28:], crc32c(crc32c(0, head[:28]), meta))
	return head, nil
}

// appendRecSegment builds a segment in memory (tests and the fuzz test's
// seeds); keys must be sorted and distinct.
func appendRecSegment(dst []byte, m recordMeta, recs []Record) ([]byte, error) {
	var buf bytes.Buffer
	meta := m.bytes()
	sw, err := newRecSegmentWriter(bufio.NewWriter(&buf), meta)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if err := sw.add(r.Key, r.Value); err != nil {
			return nil, err
		}
	}
	head, err := sw.finish(meta)
	if err != nil {
		return nil, err
	}
	out := buf.Bytes()
	copy(out, head)
	return append(dst, out...), nil
}

// writeRecSegment writes a segment file whole, beside it first and renamed
// into place (synced unless sync is false): records calls add for each
// record, in key order.
func writeRecSegment(path string, m recordMeta, sync bool, records func(add func(key string, value []byte) error) error) error {
	pf, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)),
		renameio.WithStaticPermissions(FilePerm))
	if err != nil {
		return err
	}
	defer pf.Cleanup()
	meta := m.bytes()
	sw, err := newRecSegmentWriter(bufio.NewWriterSize(pf, 256<<10), meta)
	if err != nil {
		return err
	}
	if err := records(sw.add); err != nil {
		return err
	}
	head, err := sw.finish(meta)
	if err != nil {
		return err
	}
	if _, err := pf.WriteAt(head, 0); err != nil {
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
