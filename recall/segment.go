package recall

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"slices"
)

// A Segment is an index of documents written once, as bytes, and searched
// where they lie: opening one reads its header, and a search reads the
// entries of its term table that it binary-searches, the postings of the
// query's terms and the documents' lengths, never the whole. It is how the
// knowledge of a large workspace is searched by a process that lives for
// one call: the cost of a search grows with its hits, not with the entries.
//
// A segment's documents are numbered from 0 in the order they were given.
// Beside its terms, each carries a Ref, two numbers of the caller's (where
// the entry is in its file, say), and the segment carries Meta, bytes of
// the caller's (what the segment covers). Segments and an Index are all
// Sources: SearchSources ranks the documents of several as one collection.
//
// The bytes, all integers little-endian:
//
//	"ucs recall seg 1"                         magic and version (16 bytes)
//	docs total terms metaLen                   u64 each
//	lengths refs table blob postings end       u64 each: where each part starts, and the size
//	meta                                       metaLen bytes
//	lengths                                    docs × u32: a document's weighted length (saturated)
//	refs                                       docs × (u64 u64)
//	table                                      terms × (blob u64, size u32, df u32, at u64, n u64), by term
//	blob                                       the terms' bytes
//	postings                                   per term, df × (uvarint gap, uvarint tf)
//
// A term's postings are by increasing document number, each the gap from
// the previous one (the first, its number).
type Segment struct {
	r       io.ReaderAt
	docs    int
	total   uint64
	terms   int
	meta    []byte
	parts   [6]int64 // lengths, refs, table, blob, postings, end
	lengths []uint32 // read on first search
}

// A SegmentDoc is a document as BuildSegment indexes it: its weighted
// fields and the caller's reference to it.
type SegmentDoc struct {
	Fields []Field
	Ref    [2]uint64
}

const (
	segmentMagic  = "ucs recall seg 1"
	segmentHeader = 16 + 4*8 + 6*8
	termRecord    = 8 + 4 + 4 + 8 + 8
)

// BuildSegment returns the bytes of a segment of docs, analysed by a, with
// meta. The same documents, analyzer and meta give the same bytes.
func BuildSegment(a *Analyzer, docs []SegmentDoc, meta []byte) []byte {
	b := NewSegmentBuilder(a)
	for _, d := range docs {
		b.Add(d.Fields, d.Ref)
	}
	return b.Bytes(meta)
}

// A SegmentBuilder builds a segment one document at a time, keeping only
// its postings (varint-encoded, as the segment stores them), so that a
// segment of many entries is built without holding them.
type SegmentBuilder struct {
	an      *Analyzer
	terms   map[string]*termPostings
	lengths []uint32
	refs    [][2]uint64
	total   uint64
}

// termPostings are a term's postings as they are built.
type termPostings struct {
	buf  []byte
	last int
	df   uint32
}

// NewSegmentBuilder returns an empty builder analysing with a (nil for no
// synonyms).
func NewSegmentBuilder(a *Analyzer) *SegmentBuilder {
	if a == nil {
		a = NewAnalyzer(Synonyms{})
	}
	return &SegmentBuilder{an: a, terms: map[string]*termPostings{}}
}

// Add adds the next document: its weighted fields and the caller's ref.
func (b *SegmentBuilder) Add(fields []Field, ref [2]uint64) {
	n := len(b.lengths)
	tf := map[string]uint64{}
	for _, f := range fields {
		if f.Weight < 1 {
			continue
		}
		for _, c := range b.an.Counts(f.Text) {
			tf[c.Term] += uint64(c.N) * uint64(f.Weight)
		}
	}
	var length uint64
	for t, f := range tf {
		f = min(f, math.MaxUint32)
		length += f
		p := b.terms[t]
		if p == nil {
			p = &termPostings{}
			b.terms[t] = p
		}
		p.buf = binary.AppendUvarint(p.buf, uint64(n-p.last))
		p.buf = binary.AppendUvarint(p.buf, f)
		p.last = n
		p.df++
	}
	l := uint32(min(length, math.MaxUint32))
	b.lengths = append(b.lengths, l)
	b.refs = append(b.refs, ref)
	b.total += uint64(l)
}

// Bytes returns the segment's bytes, with meta.
func (b *SegmentBuilder) Bytes(meta []byte) []byte {
	terms := make([]string, 0, len(b.terms))
	for t := range b.terms {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	var blob []byte
	table := make([]byte, 0, len(terms)*termRecord)
	at := 0
	for _, t := range terms {
		p := b.terms[t]
		table = binary.LittleEndian.AppendUint64(table, uint64(len(blob)))
		table = binary.LittleEndian.AppendUint32(table, uint32(len(t)))
		table = binary.LittleEndian.AppendUint32(table, p.df)
		table = binary.LittleEndian.AppendUint64(table, uint64(at))
		table = binary.LittleEndian.AppendUint64(table, uint64(len(p.buf)))
		blob = append(blob, t...)
		at += len(p.buf)
	}
	docs := len(b.lengths)
	var parts [6]int64
	parts[0] = int64(segmentHeader + len(meta))
	parts[1] = parts[0] + 4*int64(docs)
	parts[2] = parts[1] + 16*int64(docs)
	parts[3] = parts[2] + int64(len(table))
	parts[4] = parts[3] + int64(len(blob))
	parts[5] = parts[4] + int64(at)

	out := make([]byte, 0, parts[5])
	out = append(out, segmentMagic...)
	for _, x := range []uint64{uint64(docs), b.total, uint64(len(terms)), uint64(len(meta))} {
		out = binary.LittleEndian.AppendUint64(out, x)
	}
	for _, p := range parts {
		out = binary.LittleEndian.AppendUint64(out, uint64(p))
	}
	out = append(out, meta...)
	for _, l := range b.lengths {
		out = binary.LittleEndian.AppendUint32(out, l)
	}
	for _, r := range b.refs {
		out = binary.LittleEndian.AppendUint64(out, r[0])
		out = binary.LittleEndian.AppendUint64(out, r[1])
	}
	out = append(out, table...)
	out = append(out, blob...)
	for _, t := range terms {
		out = append(out, b.terms[t].buf...)
	}
	return out
}

// OpenSegment reads the header of the segment of size bytes that r holds,
// and checks that its parts fit; ErrCorruptIndex or ErrIndexVersion when
// they do not. Searches read the rest from r as they need it, and say
// ErrCorruptIndex for what does not decode.
func OpenSegment(r io.ReaderAt, size int64) (*Segment, error) {
	var h [segmentHeader]byte
	if size < segmentHeader {
		return nil, ErrCorruptIndex
	}
	if _, err := r.ReadAt(h[:], 0); err != nil {
		return nil, ErrCorruptIndex
	}
	if string(h[:12]) != segmentMagic[:12] {
		return nil, ErrCorruptIndex
	}
	if string(h[:16]) != segmentMagic {
		return nil, ErrIndexVersion
	}
	u := func(i int) uint64 { return binary.LittleEndian.Uint64(h[16+8*i:]) }
	docs, total, terms, metaLen := u(0), u(1), u(2), u(3)
	s := &Segment{r: r, total: total}
	for i := range s.parts {
		s.parts[i] = int64(u(4 + i))
	}
	// Every count is bounded by the size, so that nothing below can
	// overflow or allocate more than the file holds.
	if docs > uint64(size) || terms > uint64(size) || metaLen > uint64(size) ||
		s.parts[0] != segmentHeader+int64(metaLen) ||
		s.parts[1] != s.parts[0]+4*int64(docs) ||
		s.parts[2] != s.parts[1]+16*int64(docs) ||
		s.parts[3] != s.parts[2]+termRecord*int64(terms) ||
		s.parts[4] < s.parts[3] || s.parts[5] < s.parts[4] || s.parts[5] != size ||
		total/math.MaxUint32 > docs {
		return nil, ErrCorruptIndex
	}
	s.docs, s.terms = int(docs), int(terms)
	s.meta = make([]byte, metaLen)
	if _, err := r.ReadAt(s.meta, segmentHeader); metaLen > 0 && err != nil {
		return nil, ErrCorruptIndex
	}
	return s, nil
}

// Meta returns the caller's bytes the segment was built with.
func (s *Segment) Meta() []byte { return s.meta }

// Docs returns the number of documents and their summed weighted length.
func (s *Segment) Docs() (int, uint64) { return s.docs, s.total }

// Ref returns the caller's reference of document n.
func (s *Segment) Ref(n int) ([2]uint64, error) {
	var b [16]byte
	if n < 0 || n >= s.docs {
		return [2]uint64{}, ErrCorruptIndex
	}
	if _, err := s.r.ReadAt(b[:], s.parts[1]+16*int64(n)); err != nil {
		return [2]uint64{}, ErrCorruptIndex
	}
	return [2]uint64{binary.LittleEndian.Uint64(b[:]), binary.LittleEndian.Uint64(b[8:])}, nil
}

// Postings returns the documents holding term, by increasing number.
func (s *Segment) Postings(term string) ([]Posting, error) {
	at, n, df, ok, err := s.lookup(term)
	if err != nil || !ok {
		return nil, err
	}
	if err := s.readLengths(); err != nil {
		return nil, err
	}
	if n > uint64(s.parts[5]-s.parts[4]) || at > uint64(s.parts[5]-s.parts[4])-n || uint64(df) > n {
		return nil, ErrCorruptIndex
	}
	buf := make([]byte, n)
	if _, err := s.r.ReadAt(buf, s.parts[4]+int64(at)); err != nil {
		return nil, ErrCorruptIndex
	}
	out := make([]Posting, 0, df)
	doc := uint64(0)
	for i := range df {
		gap, k := binary.Uvarint(buf)
		if k <= 0 || (i > 0 && gap == 0) {
			return nil, ErrCorruptIndex
		}
		buf = buf[k:]
		tf, k := binary.Uvarint(buf)
		if k <= 0 || tf == 0 || tf > math.MaxUint32 {
			return nil, ErrCorruptIndex
		}
		buf = buf[k:]
		doc += gap
		if doc >= uint64(s.docs) {
			return nil, ErrCorruptIndex
		}
		out = append(out, Posting{Doc: int32(doc), TF: uint32(tf), Length: uint64(s.lengths[doc])})
	}
	if len(buf) != 0 {
		return nil, ErrCorruptIndex
	}
	return out, nil
}

// lookup binary-searches the term table: where term's postings are.
func (s *Segment) lookup(term string) (at, n uint64, df uint32, ok bool, err error) {
	var rec [termRecord]byte
	var word []byte
	blobSize := uint64(s.parts[4] - s.parts[3])
	read := func(i int) error {
		if _, err := s.r.ReadAt(rec[:], s.parts[2]+termRecord*int64(i)); err != nil {
			return ErrCorruptIndex
		}
		off, size := binary.LittleEndian.Uint64(rec[:]), uint64(binary.LittleEndian.Uint32(rec[8:]))
		if off > blobSize || size > blobSize-off {
			return ErrCorruptIndex
		}
		word = slices.Grow(word[:0], int(size))[:size]
		if _, err := s.r.ReadAt(word, s.parts[3]+int64(off)); err != nil {
			return ErrCorruptIndex
		}
		return nil
	}
	lo, hi := 0, s.terms
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if err := read(mid); err != nil {
			return 0, 0, 0, false, err
		}
		switch c := bytes.Compare(word, []byte(term)); {
		case c == 0:
			df = binary.LittleEndian.Uint32(rec[12:])
			return binary.LittleEndian.Uint64(rec[16:]), binary.LittleEndian.Uint64(rec[24:]), df, df > 0, nil
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, 0, 0, false, nil
}

// readLengths reads the documents' lengths, once.
func (s *Segment) readLengths() error {
	if s.lengths != nil || s.docs == 0 {
		return nil
	}
	buf := make([]byte, 4*s.docs)
	if _, err := s.r.ReadAt(buf, s.parts[0]); err != nil {
		return ErrCorruptIndex
	}
	s.lengths = make([]uint32, s.docs)
	var sum uint64
	for i := range s.lengths {
		s.lengths[i] = binary.LittleEndian.Uint32(buf[4*i:])
		sum += uint64(s.lengths[i])
	}
	if sum != s.total {
		s.lengths = nil
		return ErrCorruptIndex
	}
	return nil
}
