package recall

import (
	"cmp"
	"slices"
)

// A Posting is a document holding a term: its number in its segment, the
// term's weighted frequency in it and its weighted length.
type Posting struct {
	Doc    int32
	TF     uint32
	Length uint64
}

// A SegmentHit is a document a search of segments found: which segment
// (its position in the list searched) and which document of it, with its
// score and what the score is made of.
type SegmentHit struct {
	Segment int
	Doc     int
	Score   float64
	Matched []TermScore // sorted by term; their scores add up to Score
}

// SearchSegments ranks the documents of segs as one collection, with
// Search's BM25 and a's terms for q (Kinds aside: a segment's documents
// have no kind). Their numbers of documents, lengths and document
// frequencies are summed, so the scores are those of one segment holding
// every document, however the documents are split between segments. The
// hits are sorted by decreasing score, then by segment and document: list
// the segments in their documents' order, and ties keep that order.
func SearchSegments(q Query, a *Analyzer, segs []*Segment) ([]SegmentHit, error) {
	if a == nil {
		a = NewAnalyzer(Synonyms{})
	}
	terms := a.Terms(q.Text)
	if len(q.Terms) > 0 {
		terms = append(terms, q.Terms...)
		slices.Sort(terms)
		terms = slices.Compact(terms)
	}
	var docs int
	var total uint64
	for _, s := range segs {
		n, t := s.Docs()
		docs += n
		total += t
	}
	if docs == 0 || len(terms) == 0 {
		return nil, nil
	}
	avgdl := float64(total) / float64(docs)
	// Each term's postings in every segment, and its IDF over all.
	type termLists struct {
		term  string
		idf   float64
		lists [][]Posting
	}
	var qs []termLists
	for _, t := range terms {
		tl := termLists{term: t, lists: make([][]Posting, len(segs))}
		df := 0
		for i, s := range segs {
			list, err := s.Postings(t)
			if err != nil {
				return nil, err
			}
			tl.lists[i] = list
			df += len(list)
		}
		if df > 0 {
			tl.idf = idf(docs, df)
			qs = append(qs, tl)
		}
	}
	// Sum each document's score term by term, in term order (as
	// Index.Search does, so that the sums are the same), in a dense
	// array per segment.
	scores := make([][]float64, len(segs))
	var touched []SegmentHit
	for _, tl := range qs {
		for i, list := range tl.lists {
			if len(list) > 0 && scores[i] == nil {
				n, _ := segs[i].Docs()
				scores[i] = make([]float64, n)
			}
			for _, p := range list {
				if scores[i][p.Doc] == 0 {
					touched = append(touched, SegmentHit{Segment: i, Doc: int(p.Doc)})
				}
				scores[i][p.Doc] += bm25(tl.idf, p.TF, p.Length, avgdl)
			}
		}
	}
	hits := touched[:0]
	for _, h := range touched {
		h.Score = scores[h.Segment][h.Doc]
		if h.Score >= q.MinScore {
			hits = append(hits, h)
		}
	}
	hits = topSegmentHits(hits, q.Max)
	// Explain the hits returned, only: a binary search per term and hit.
	for k := range hits {
		h := &hits[k]
		for _, tl := range qs {
			list := tl.lists[h.Segment]
			if j, ok := slices.BinarySearchFunc(list, int32(h.Doc), func(p Posting, doc int32) int { return cmp.Compare(p.Doc, doc) }); ok {
				h.Matched = append(h.Matched, TermScore{tl.term, bm25(tl.idf, list[j].TF, list[j].Length, avgdl)})
			}
		}
	}
	return hits, nil
}

// topSegmentHits returns the best max of hits (all for max ≤ 0), sorted
// by decreasing score, then by segment and document; with max given it
// keeps the best in a heap as it goes.
func topSegmentHits(hits []SegmentHit, max int) []SegmentHit {
	order := func(a, b SegmentHit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		if a.Segment != b.Segment {
			return a.Segment - b.Segment
		}
		return a.Doc - b.Doc
	}
	if max > 0 && len(hits) > max {
		// A heap of the best max so far whose root ranks last.
		h := hits[:max:max]
		down := func(i int) {
			for {
				c := 2*i + 1
				if c >= len(h) {
					return
				}
				if c+1 < len(h) && order(h[c+1], h[c]) > 0 {
					c++
				}
				if order(h[c], h[i]) <= 0 {
					return
				}
				h[i], h[c] = h[c], h[i]
				i = c
			}
		}
		for i := len(h)/2 - 1; i >= 0; i-- {
			down(i)
		}
		for _, x := range hits[max:] {
			if order(x, h[0]) < 0 {
				h[0] = x
				down(0)
			}
		}
		hits = h
	}
	slices.SortFunc(hits, order)
	return hits
}
