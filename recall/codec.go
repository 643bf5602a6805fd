package recall

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// IndexVersion is the version of the index's bytes that AppendBinary
// writes and DecodeIndex reads.
const IndexVersion = 1

// indexMagic opens an index's bytes, readable in a hex dump.
const indexMagic = "ucs recall index"

// Errors of DecodeIndex, for errors.Is. An index is derived from the
// entries: on either, rebuild it from them.
var (
	ErrCorruptIndex = errors.New("recall: corrupt index")
	ErrIndexVersion = errors.New("recall: index of another version")
)

// AppendBinary appends the index's bytes to dst:
//
//	"ucs recall index" version
//	S  S × (variant canonical)         the synonym table, by variant
//	D  D × (id kind)                    the documents, by ID
//	T  T × (term P P × (gap tf))        the postings, by term
//
// Numbers are unsigned varints, strings a varint length and their bytes.
// Documents are numbered in ID order, from 0; a term's postings are by
// increasing document number, each the gap from the previous one (the
// first, its number), and its weighted frequency. Lengths are not stored:
// a document's length is the sum of its frequencies. Removed documents
// and terms no document holds any more are left out, so the same
// documents and synonyms give the same bytes, in whatever order the
// documents were added and whatever was removed on the way.
func (ix *Index) AppendBinary(dst []byte) []byte {
	dst = append(dst, indexMagic...)
	dst = binary.AppendUvarint(dst, IndexVersion)

	syn := ix.an.Synonyms().to
	dst = binary.AppendUvarint(dst, uint64(len(syn)))
	for _, v := range slices.Sorted(maps.Keys(syn)) {
		dst = appendString(appendString(dst, v), syn[v])
	}

	live := make([]int32, 0, ix.live)
	for n, d := range ix.docs {
		if !d.dead {
			live = append(live, int32(n))
		}
	}
	slices.SortFunc(live, func(a, b int32) int { return strings.Compare(ix.docs[a].id, ix.docs[b].id) })
	renum := make([]int32, len(ix.docs))
	for i := range renum {
		renum[i] = -1
	}
	dst = binary.AppendUvarint(dst, uint64(len(live)))
	for i, n := range live {
		renum[n] = int32(i)
		dst = appendString(appendString(dst, ix.docs[n].id), ix.docs[n].kind)
	}

	var terms []string
	for t, p := range ix.terms {
		if p.df > 0 {
			terms = append(terms, t)
		}
	}
	slices.Sort(terms)
	dst = binary.AppendUvarint(dst, uint64(len(terms)))
	var list []posting
	for _, t := range terms {
		list = list[:0]
		for _, x := range ix.terms[t].list {
			if n := renum[x.doc]; n >= 0 {
				list = append(list, posting{n, x.tf})
			}
		}
		slices.SortFunc(list, func(a, b posting) int { return cmp.Compare(a.doc, b.doc) })
		dst = appendString(dst, t)
		dst = binary.AppendUvarint(dst, uint64(len(list)))
		prev := int32(0)
		for _, x := range list {
			dst = binary.AppendUvarint(dst, uint64(x.doc-prev))
			dst = binary.AppendUvarint(dst, uint64(x.tf))
			prev = x.doc
		}
	}
	return dst
}

func appendString(dst []byte, s string) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(s))), s...)
}

// DecodeIndex reads an index from the bytes AppendBinary wrote. Its
// analyzer has the synonym table the bytes hold; compare it with the
// manifest's (Synonyms.Equal) to know whether the index is still valid.
// Everything is checked: the header, every count against the bytes left,
// the order of synonyms, documents, terms and postings, document numbers,
// frequencies (1 to 2³²−1), varints in their shortest form and no bytes
// left over, so that any bytes DecodeIndex accepts are exactly the bytes
// AppendBinary writes for the index it returns. Errors wrap
// ErrCorruptIndex or ErrIndexVersion; garbage never panics.
func DecodeIndex(data []byte) (*Index, error) {
	r := reader{data: data}
	if len(data) < len(indexMagic) || string(data[:len(indexMagic)]) != indexMagic {
		return nil, r.fail("not a recall index: the bytes do not start with %q", indexMagic)
	}
	r.off = len(indexMagic)
	if v := r.uvarint(); r.err == nil && v != IndexVersion {
		return nil, fmt.Errorf("%w: version %d, this ucs reads version %d", ErrIndexVersion, v, IndexVersion)
	}

	// Synonyms: strictly increasing variants, none of them a canonical term.
	var syn map[string]string
	ns := r.count(2)
	if ns > 0 {
		syn = make(map[string]string, ns)
	}
	prev := ""
	for i := range ns {
		v, c := r.str(), r.str()
		switch {
		case r.err != nil:
		case v == "" || c == "":
			r.fail("synonym %d: an empty term", i)
		case i > 0 && v <= prev:
			r.fail("synonym %d: %q after %q: variants must be strictly increasing", i, v, prev)
		case v == c:
			r.fail("synonym %d: %q is its own canonical term", i, v)
		}
		syn[v], prev = c, v
	}
	for _, v := range slices.Sorted(maps.Keys(syn)) {
		if _, ok := syn[syn[v]]; ok && r.err == nil {
			r.fail("synonym %q: its canonical term %q is a variant too", v, syn[v])
		}
	}

	// Documents: strictly increasing IDs.
	ix := NewIndex(NewAnalyzer(Synonyms{to: syn}))
	nd := r.count(2)
	ix.docs = make([]docInfo, 0, nd)
	for i := range nd {
		id, kind := r.str(), r.str()
		if r.err == nil && i > 0 && id <= ix.docs[i-1].id {
			r.fail("document %d: ID %q after %q: IDs must be strictly increasing", i, id, ix.docs[i-1].id)
		}
		ix.docs = append(ix.docs, docInfo{id: id, kind: kind})
		ix.ids[id] = int32(i)
	}
	ix.live = nd

	// Postings: strictly increasing terms, each in 1 to D documents by
	// strictly increasing number.
	nt := r.count(3)
	prev = ""
	for i := range nt {
		t := r.str()
		np := r.count(2)
		switch {
		case r.err != nil:
		case t == "":
			r.fail("term %d: empty", i)
		case i > 0 && t <= prev:
			r.fail("term %d: %q after %q: terms must be strictly increasing", i, t, prev)
		case np == 0 || np > nd:
			r.fail("term %q: in %d documents, of %d", t, np, nd)
		}
		if r.err != nil {
			break
		}
		p := &postings{list: make([]posting, 0, np), df: np}
		doc := uint64(0)
		for j := range np {
			gap, tf := r.uvarint(), r.uvarint()
			doc += gap
			switch {
			case r.err != nil:
			case j > 0 && gap == 0:
				r.fail("term %q: posting %d: document %d twice", t, j, doc)
			case gap >= uint64(nd) || doc >= uint64(nd):
				r.fail("term %q: posting %d: document %d of %d", t, j, doc, nd)
			case tf == 0 || tf > math.MaxUint32:
				r.fail("term %q: posting %d: frequency %d, want 1 to 2³²−1", t, j, tf)
			}
			if r.err != nil {
				break
			}
			p.list = append(p.list, posting{int32(doc), uint32(tf)})
			d := &ix.docs[doc]
			d.terms = append(d.terms, t)
			d.length += tf
			ix.total += tf
		}
		ix.terms[t], prev = p, t
	}
	if r.err == nil && r.off != len(data) {
		r.fail("%d bytes after the index", len(data)-r.off)
	}
	if r.err != nil {
		return nil, r.err
	}
	return ix, nil
}

// reader reads an index's bytes, keeping the first error.
type reader struct {
	data []byte
	off  int
	err  error
}

func (r *reader) fail(format string, args ...any) error {
	if r.err == nil {
		r.err = fmt.Errorf("%w: at byte %d: %s", ErrCorruptIndex, r.off, fmt.Sprintf(format, args...))
	}
	return r.err
}

// uvarint reads an unsigned varint in its shortest form.
func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.data[r.off:])
	switch {
	case n == 0:
		r.fail("the bytes end inside a number")
		return 0
	case n < 0:
		r.fail("a number overflows 64 bits")
		return 0
	case n != len(binary.AppendUvarint(nil, v)):
		r.fail("a number not in its shortest form")
		return 0
	}
	r.off += n
	return v
}

// count reads a number of items of at least size bytes each, and fails
// when the bytes left cannot hold them: a count never allocates more than
// the input justifies.
func (r *reader) count(size int) int {
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.data)-r.off)/uint64(size) {
		r.fail("%d items of at least %d bytes, %d bytes left", n, size, len(r.data)-r.off)
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

func (r *reader) str() string {
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.data)-r.off) {
		r.fail("a string of %d bytes, %d bytes left", n, len(r.data)-r.off)
	}
	if r.err != nil {
		return ""
	}
	s := string(r.data[r.off : r.off+int(n)])
	r.off += int(n)
	return s
}
