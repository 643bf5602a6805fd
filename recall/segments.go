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
	type key struct{ seg, doc int }
	at := map[key]int{}
	var hits []SegmentHit
	for _, t := range terms {
		lists := make([][]Posting, len(segs))
		df := 0
		for i, s := range segs {
			list, err := s.Postings(t)
			if err != nil {
				return nil, err
			}
			lists[i] = list
			df += len(list)
		}
		if df == 0 {
			continue
		}
		idf := idf(docs, df)
		for i, list := range lists {
			for _, p := range list {
				s := bm25(idf, p.TF, p.Length, avgdl)
				k := key{i, int(p.Doc)}
				j, ok := at[k]
				if !ok {
					j = len(hits)
					at[k] = j
					hits = append(hits, SegmentHit{Segment: i, Doc: int(p.Doc)})
				}
				hits[j].Score += s
				hits[j].Matched = append(hits[j].Matched, TermScore{t, s})
			}
		}
	}
	hits = slices.DeleteFunc(hits, func(h SegmentHit) bool { return h.Score < q.MinScore })
	slices.SortFunc(hits, func(a, b SegmentHit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		if a.Segment != b.Segment {
			return a.Segment - b.Segment
		}
		return a.Doc - b.Doc
	})
	if q.Max > 0 && len(hits) > q.Max {
		hits = hits[:q.Max:q.Max]
	}
	return hits, nil
}
