package recall

import (
	"cmp"
	"math"
	"slices"
	"strings"
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
	n := float64(ix.live)
	avgdl := float64(ix.total) / n
	at := map[int32]int{} // document → its hit
	var hits []Hit
	for _, t := range terms {
		p := ix.terms[t]
		if p == nil || p.df == 0 {
			continue
		}
		df := float64(p.df)
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, x := range p.list {
			d := &ix.docs[x.doc]
			if d.dead || q.Kinds != nil && !slices.Contains(q.Kinds, d.kind) {
				continue
			}
			tf := float64(x.tf)
			s := idf * tf * (K1 + 1) / (tf + K1*(1-B+B*float64(d.length)/avgdl))
			i, ok := at[x.doc]
			if !ok {
				i = len(hits)
				at[x.doc] = i
				hits = append(hits, Hit{ID: d.id, Kind: d.kind})
			}
			hits[i].Score += s
			hits[i].Matched = append(hits[i].Matched, TermScore{t, s})
		}
	}
	hits = slices.DeleteFunc(hits, func(h Hit) bool { return h.Score < q.MinScore })
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if q.Max > 0 && len(hits) > q.Max {
		hits = hits[:q.Max]
	}
	return hits
}
