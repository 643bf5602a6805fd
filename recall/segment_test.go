package recall

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var segmentWords = strings.Fields("fix failing unit test parser deploy pricing report vendor page fetch " +
	"timeout retry cache build release tests fixed pages reports api stripe refund")

// randomDocs are n documents of two weighted fields of words drawn from a
// small vocabulary, so that terms repeat across documents.
func randomDocs(rng *rand.Rand, n int) []SegmentDoc {
	docs := make([]SegmentDoc, n)
	for i := range docs {
		var title, body []string
		for range 1 + rng.IntN(3) {
			title = append(title, segmentWords[rng.IntN(len(segmentWords))])
		}
		for range rng.IntN(12) {
			body = append(body, segmentWords[rng.IntN(len(segmentWords))])
		}
		docs[i] = SegmentDoc{Fields: []Field{{strings.Join(title, " "), TitleWeight}, {strings.Join(body, " "), TextWeight}},
			Ref: [2]uint64{uint64(i), uint64(100 * i)}}
	}
	return docs
}

func openBytes(t testing.TB, b []byte) *Segment {
	s, err := OpenSegment(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	return s
}

// Documents split between segments score exactly as in one Index holding
// them all (the same sums, in the same order), whatever the split; ties
// keep the documents' order.
func TestSegmentsScoreAsOneIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		docs := randomDocs(rng, 1+rng.IntN(200))
		ix := NewIndex(nil)
		for i, d := range docs {
			ix.Add(Doc{ID: fmt.Sprintf("%06d", i), Fields: d.Fields})
		}
		// Split at random points.
		var segs []*Segment
		var firsts []int
		for at := 0; at < len(docs); {
			n := 1 + rng.IntN(len(docs)-at)
			segs = append(segs, openBytes(t, BuildSegment(nil, docs[at:at+n], []byte("meta"))))
			firsts = append(firsts, at)
			at += n
		}
		for _, q := range []string{"fix the failing test", "pricing pages", "stripe refund api retry", "nothing matches"} {
			want := ix.Search(Query{Text: q})
			got, err := SearchSegments(Query{Text: q}, nil, segs)
			require.NoError(t, err)
			require.Len(t, got, len(want), "round %d %q", round, q)
			for i, h := range got {
				assert.Equal(t, want[i].ID, fmt.Sprintf("%06d", firsts[h.Segment]+h.Doc), "round %d %q hit %d", round, q, i)
				assert.Equal(t, want[i].Score, h.Score, "exactly the same sum")
				assert.Equal(t, want[i].Matched, h.Matched)
			}
			capped, err := SearchSegments(Query{Text: q, Max: 3}, nil, segs)
			require.NoError(t, err)
			assert.Equal(t, got[:min(3, len(got))], capped)
		}
	}
}

func TestSegmentRefsAndMeta(t *testing.T) {
	docs := randomDocs(rand.New(rand.NewPCG(3, 4)), 10)
	b := BuildSegment(nil, docs, []byte("0 10 covered"))
	assert.Equal(t, b, BuildSegment(nil, docs, []byte("0 10 covered")), "deterministic")
	s := openBytes(t, b)
	assert.Equal(t, []byte("0 10 covered"), s.Meta())
	for i := range docs {
		ref, err := s.Ref(i)
		require.NoError(t, err)
		assert.Equal(t, docs[i].Ref, ref)
	}
	_, err := s.Ref(10)
	assert.ErrorIs(t, err, ErrCorruptIndex)

	empty := openBytes(t, BuildSegment(nil, nil, nil))
	hits, err := SearchSegments(Query{Text: "test"}, nil, []*Segment{empty})
	require.NoError(t, err)
	assert.Empty(t, hits)
}

func TestSegmentRefusesDamage(t *testing.T) {
	b := BuildSegment(nil, randomDocs(rand.New(rand.NewPCG(5, 6)), 30), nil)
	_, err := OpenSegment(bytes.NewReader(b[:len(b)-1]), int64(len(b)-1))
	assert.ErrorIs(t, err, ErrCorruptIndex, "truncated")
	other := bytes.Clone(b)
	copy(other[12:], "9999")
	_, err = OpenSegment(bytes.NewReader(other), int64(len(other)))
	assert.ErrorIs(t, err, ErrIndexVersion)
	// A damaged posting is an error of the search, never a panic.
	bad := bytes.Clone(b)
	for i := len(bad) - 40; i < len(bad); i++ {
		bad[i] = 0xff
	}
	s := openBytes(t, bad)
	_, err = SearchSegments(Query{Text: strings.Join(segmentWords, " ")}, nil, []*Segment{s})
	assert.ErrorIs(t, err, ErrCorruptIndex)
}

// FuzzSegment: any bytes open or are refused, and a search of what opens
// returns hits or an error, never panics.
func FuzzSegment(f *testing.F) {
	f.Add(BuildSegment(nil, randomDocs(rand.New(rand.NewPCG(7, 8)), 5), []byte("m")))
	f.Add(BuildSegment(nil, nil, nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := OpenSegment(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		hits, err := SearchSegments(Query{Text: strings.Join(segmentWords, " ")}, nil, []*Segment{s})
		if err != nil {
			return
		}
		n, _ := s.Docs()
		for _, h := range hits {
			if h.Doc < 0 || h.Doc >= n {
				t.Fatalf("hit %d of %d documents", h.Doc, n)
			}
			s.Ref(h.Doc)
		}
	})
}
