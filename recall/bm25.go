package recall

import (
	"cmp"
	"math"
	"slices"
)

// The BM25 parameters: K1 is how quickly repeats of a term stop adding to
// a document's score, B how much a long document's score is scaled down.
const (
	K1 = 1.2
	B  = 0.75
)

// A Query is what a search looks for.
type Query struct {
	Text  string   // analysed with the index's analyzer
	Terms []string // terms already analysed (a context's, say), searched with Text's
	// Kinds keeps only the documents of these kinds; nil keeps all.
	Kinds    []string
	MinScore float64 // hits scoring less are left out
	Max      int     // the most hits returned; 0 or less for all
}

// A Hit is a document a search found, with its score and what the score is
// made of.
type Hit struct {
	ID, Kind string
	Score    float64
	Matched  []TermScore // the query terms the document holds, sorted by term; their scores add up to Score
}

// A TermScore is one term's part of a hit's score.
type TermScore struct {
	Term  string
	Score float64
}

// Search ranks the documents holding at least one of the query's terms by
// BM25 over their weighted fields:
//
//	score(D) = Σ over query terms t in D of
//	           IDF(t) · tf·(K1+1) / (tf + K1·(1 − B + B·|D|/avgdl))
//	IDF(t)   = ln(1 + (N − df + 0.5) / (df + 0.5))
//
// where tf is t's weighted frequency in D, |D| D's weighted length, avgdl
// the mean length of the documents, N their number and df the number that
// hold t. IDF is never negative, so a shared term never lowers a score.
// Each distinct query term counts once. The hits are sorted by decreasing
// score, then by ID: the same index and query always give the same hits.
//
// Search reads only the postings of the query's terms: its cost grows with
// the number of documents holding them, not with the size of the index. A
// document sharing no term with the query is never a hit, whatever
// MinScore says.
func (ix *Index) Search(q Query) []Hit {
	terms := ix.an.Terms(q.Text)
	if len(q.Terms) > 0 {
		terms = append(terms, q.Terms...)
		slices.Sort(terms)
		terms = slices.Compact(terms)
	}
	if ix.live == 0 || len(terms) == 0 {
		return nil
	}
	// The query's terms in the index, with their IDF.
	var qs []queryTerm
	reach := 0
	for _, t := range terms {
		if p := ix.terms[t]; p != nil && p.df > 0 {
			qs = append(qs, queryTerm{t, p, ix.idf(p.df)})
			reach += len(p.list)
		}
	}
	// Sum each document's score, term by term (in term order, so that a
	// hit's Matched add up to its score exactly).
	at := make(map[int32]int32, min(reach, ix.live))
	var accs []scored
	for _, qt := range qs {
		for _, x := range qt.p.list {
			d := &ix.docs[x.doc]
			if d.dead || q.Kinds != nil && !slices.Contains(q.Kinds, d.kind) {
				continue
			}
			s := ix.bm25(qt.idf, x.tf, d.length)
			if i, ok := at[x.doc]; ok {
				accs[i].score += s
			} else {
				at[x.doc] = int32(len(accs))
				accs = append(accs, scored{x.doc, s})
			}
		}
	}
	accs = slices.DeleteFunc(accs, func(a scored) bool { return a.score < q.MinScore })
	if len(accs) == 0 {
		return nil
	}
	accs = ix.top(accs, q.Max)
	// Explain the hits returned, only: a binary search per term and hit.
	hits := make([]Hit, len(accs))
	for i, a := range accs {
		d := &ix.docs[a.doc]
		h := Hit{ID: d.id, Kind: d.kind, Score: a.score}
		for _, qt := range qs {
			if j, ok := slices.BinarySearchFunc(qt.p.list, a.doc, func(x posting, doc int32) int { return cmp.Compare(x.doc, doc) }); ok {
				h.Matched = append(h.Matched, TermScore{qt.term, ix.bm25(qt.idf, qt.p.list[j].tf, d.length)})
			}
		}
		hits[i] = h
	}
	return hits
}

// A queryTerm is a term of a query that the index holds.
type queryTerm struct {
	term string
	p    *postings
	idf  float64
}

// scored is a document and its score so far.
type scored struct {
	doc   int32
	score float64
}

// idf is the inverse document frequency of a term in df of the live
// documents.
func (ix *Index) idf(df int) float64 { return idf(ix.live, df) }

// bm25 is a term's part of the score of a document of the given length
// holding it tf times.
func (ix *Index) bm25(idf float64, tf uint32, length uint64) float64 {
	return bm25(idf, tf, length, float64(ix.total)/float64(ix.live))
}

// idf is the inverse document frequency of a term that df of n documents
// hold: the one formula of every search (Index.Search, SearchSegments).
func idf(n, df int) float64 {
	N, f := float64(n), float64(df)
	return math.Log(1 + (N-f+0.5)/(f+0.5))
}

// bm25 is a term's part of the score of a document of the given length
// holding it tf times, among documents of mean length avgdl.
func bm25(idf float64, tf uint32, length uint64, avgdl float64) float64 {
	f := float64(tf)
	return idf * f * (K1 + 1) / (f + K1*(1-B+B*float64(length)/avgdl))
}

// top returns the best max of accs (all for max ≤ 0) in hit order: by
// decreasing score, then by ID. With max given, it keeps the best in a
// heap as it goes, so ranking many hits costs little more than reading
// them.
func (ix *Index) top(accs []scored, max int) []scored {
	less := func(a, b scored) bool { // a ranks after b
		if a.score != b.score {
			return a.score < b.score
		}
		return ix.docs[a.doc].id > ix.docs[b.doc].id
	}
	if max > 0 && len(accs) > max {
		// A min-heap of the best max so far: its root ranks last.
		h := accs[:max:max]
		down := func(i int) {
			for {
				c := 2*i + 1
				if c >= len(h) {
					return
				}
				if c+1 < len(h) && less(h[c+1], h[c]) {
					c++
				}
				if !less(h[c], h[i]) {
					return
				}
				h[i], h[c] = h[c], h[i]
				i = c
			}
		}
		for i := len(h)/2 - 1; i >= 0; i-- {
			down(i)
		}
		for _, a := range accs[max:] {
			if less(h[0], a) {
				h[0] = a
				down(0)
			}
		}
		accs = h
	}
	slices.SortFunc(accs, func(a, b scored) int {
		switch {
		case less(b, a):
			return -1
		case less(a, b):
			return 1
		}
		return 0
	})
	return accs
}
