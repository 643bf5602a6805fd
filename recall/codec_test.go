package recall

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func corpusIndex(a *Analyzer) *Index {
	ix := NewIndex(a)
	for _, e := range corpus {
		ix.Add(e.doc())
	}
	return ix
}

// The bytes depend on the documents and synonyms only: not on the order
// of Add, nor on what was added and removed on the way.
func TestAppendBinaryDeterministic(t *testing.T) {
	syn := mustSynonyms(t, map[string][]string{"fix": {"repair"}})
	a, b := corpusIndex(NewAnalyzer(syn)), NewIndex(NewAnalyzer(syn))
	b.Add(text("scratch", "observation", "a document removed before encoding"))
	for i := len(corpus) - 1; i >= 0; i-- {
		b.Add(corpus[i].doc())
	}
	b.Add(text("m-csv", "observation", "replaced, then put back"))
	b.Add(corpus[28].doc()) // m-csv again
	require.Equal(t, "m-csv", corpus[28].id)
	require.True(t, b.Remove("scratch"))
	assert.Equal(t, a.AppendBinary(nil), b.AppendBinary(nil))
	assert.Equal(t, a.AppendBinary(nil), a.AppendBinary(nil))
	assert.Equal(t, []byte("x"), NewIndex(nil).AppendBinary([]byte("x"))[:1], "appends")
}

// A decoded index answers as the original, with the same synonyms, and
// writes the same bytes.
func TestDecodeIndexRoundTrip(t *testing.T) {
	syn := mustSynonyms(t, map[string][]string{"fix": {"repair"}, "failure": {"error"}})
	ix := corpusIndex(NewAnalyzer(syn))
	enc := ix.AppendBinary(nil)
	dec, err := DecodeIndex(enc)
	require.NoError(t, err)
	assert.Equal(t, enc, dec.AppendBinary(nil))
	assert.True(t, syn.Equal(dec.Analyzer().Synonyms()))
	assert.Equal(t, ix.Len(), dec.Len())
	for _, p := range paraphrases {
		assert.Equal(t, ix.Search(Query{Text: p.context}), dec.Search(Query{Text: p.context}), p.context)
	}
	terms, ok := dec.Terms("m-parser-test")
	require.True(t, ok)
	want, _ := ix.Terms("m-parser-test")
	assert.Equal(t, want, terms)

	// The decoded index takes additions and removals like any other.
	dec.Remove("m-parser-test")
	dec.Add(text("new", "methodology", "repair the failing parser test"))
	hits := dec.Search(Query{Text: "fix parser"})
	require.NotEmpty(t, hits)
	assert.Equal(t, "new", hits[0].ID)

	empty, err := DecodeIndex(NewIndex(nil).AppendBinary(nil))
	require.NoError(t, err)
	assert.Equal(t, 0, empty.Len())
	assert.Nil(t, empty.Search(Query{Text: "anything"}))
}

// enc builds index bytes by hand: the header, then the given numbers
// (uint64, as varints) and strings.
func enc(parts ...any) []byte {
	b := []byte(indexMagic)
	b = binary.AppendUvarint(b, IndexVersion)
	for _, p := range parts {
		switch x := p.(type) {
		case int:
			b = binary.AppendUvarint(b, uint64(x))
		case string:
			b = appendString(b, x)
		case []byte:
			b = append(b, x...)
		}
	}
	return b
}

func TestDecodeIndexErrors(t *testing.T) {
	valid := enc(0, 2, "a", "k", "b", "k", 1, "term", 2, 0, 1, 1, 3)
	_, err := DecodeIndex(valid)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a recall index"},
		{"other magic", []byte("ucs recall indey\x01\x00\x00\x00"), "not a recall index"},
		{"no version", valid[:len(indexMagic)], "the bytes end inside a number"},
		{"truncated", valid[:len(valid)-1], "2 items of at least 2 bytes, 3 bytes left"},
		{"trailing", append(bytes.Clone(valid), 0), "1 bytes after the index"},
		{"long varint", append([]byte(indexMagic), 0x81, 0x00, 0, 0, 0), "not in its shortest form"},
		{"overflow", append([]byte(indexMagic), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), "overflows 64 bits"},
		{"huge count", enc(1 << 40), "items of at least 2 bytes"},
		{"huge string", enc(0, 1, []byte{0xff, 0x01}), "a string of 255 bytes"},
		{"synonyms out of order", enc(2, "b", "x", "a", "x", 0, 0), `"a" after "b"`},
		{"synonym to itself", enc(1, "a", "a", 0, 0), "its own canonical term"},
		{"synonym chain", enc(2, "a", "b", "b", "c", 0, 0), `canonical term "b" is a variant too`},
		{"empty synonym", enc(1, "", "x", 0, 0), "an empty term"},
		{"IDs out of order", enc(0, 2, "b", "k", "a", "k", 0), `ID "a" after "b"`},
		{"duplicate ID", enc(0, 2, "a", "k", "a", "k", 0), `ID "a" after "a"`},
		{"terms out of order", enc(0, 1, "a", "k", 2, "y", 1, 0, 1, "x", 1, 0, 1), `"x" after "y"`},
		{"empty term", enc(0, 1, "a", "k", 1, "", 1, 0, 1), "term 0: empty"},
		{"term in no document", enc(0, 1, "a", "k", 1, "x", 0), "in 0 documents"},
		{"document out of range", enc(0, 1, "a", "k", 1, "x", 1, 1, 1), "document 1 of 1"},
		{"posting twice", enc(0, 2, "a", "k", "b", "k", 1, "x", 2, 0, 1, 0, 1), "document 0 twice"},
		{"zero frequency", enc(0, 1, "a", "k", 1, "x", 1, 0, 0), "frequency 0"},
		{"huge frequency", enc(0, 1, "a", "k", 1, "x", 1, 0, 1<<32), "frequency 4294967296"},
	} {
		_, err := DecodeIndex(tc.data)
		require.Error(t, err, tc.name)
		assert.ErrorIs(t, err, ErrCorruptIndex, tc.name)
		assert.ErrorContains(t, err, tc.want, tc.name)
	}
	_, err = DecodeIndex(append([]byte(indexMagic), 2))
	assert.ErrorIs(t, err, ErrIndexVersion)
	assert.False(t, errors.Is(err, ErrCorruptIndex))
	assert.EqualError(t, err, "recall: index of another version: version 2, this ucs reads version 1")
}

// FuzzDecodeIndex: DecodeIndex never panics, and whatever it accepts it
// writes back byte for byte, and can search.
func FuzzDecodeIndex(f *testing.F) {
	f.Add(NewIndex(nil).AppendBinary(nil))
	f.Add(enc(0, 2, "a", "k", "b", "k", 1, "term", 2, 0, 1, 1, 3))
	f.Add(enc(1, "repair", "fix", 1, "a", "k", 2, "fix", 1, 0, 2, "parser", 1, 0, 1))
	small := NewIndex(NewAnalyzer(mustSynonyms(f, map[string][]string{"fix": {"repair"}})))
	for _, e := range corpus[:6] {
		small.Add(e.doc())
	}
	f.Add(small.AppendBinary(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := DecodeIndex(data)
		if err != nil {
			if !errors.Is(err, ErrCorruptIndex) && !errors.Is(err, ErrIndexVersion) {
				t.Fatalf("error %v wraps neither sentinel", err)
			}
			return
		}
		if got := ix.AppendBinary(nil); !bytes.Equal(got, data) {
			t.Fatalf("round trip:\n%q\n%q", data, got)
		}
		for _, id := range []string{"a", "k"} {
			ix.Terms(id)
		}
		for _, h := range ix.Search(Query{Text: "term fix parser test a k"}) {
			if h.Score <= 0 {
				t.Fatalf("hit %s scores %v", h.ID, h.Score)
			}
		}
		ix.Remove("a")
		ix.Add(text("z", "k", fmt.Sprint(len(data))))
	})
}
