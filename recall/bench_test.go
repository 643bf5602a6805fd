package recall

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// synthetic returns n documents drawn from a vocabulary of 20,000 words
// with Zipf frequencies, as entries' words are (a title of 4 words, a text
// of 24, 3 keywords), plus 10 needles: documents holding the words
// "needle0" to "needle9", which no other document holds.
func synthetic(n int) []Doc {
	r := rand.New(rand.NewPCG(7, 11))
	zipf := rand.NewZipf(r, 1.1, 1, 19999)
	word := func() string { return fmt.Sprintf("w%05d", zipf.Uint64()) }
	words := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = word()
		}
		return strings.Join(ws, " ")
	}
	kinds := []string{"methodology", "dead_end", "judgment", "experiment", "observation"}
	docs := make([]Doc, 0, n+10)
	for i := range n {
		docs = append(docs, Doc{ID: fmt.Sprintf("doc%06d", i), Kind: kinds[i%len(kinds)], Fields: []Field{
			{words(4), TitleWeight}, {words(24), TextWeight}, {words(3), KeywordsWeight}}})
	}
	for i := range 10 {
		docs = append(docs, Doc{ID: fmt.Sprintf("needle%d", i), Kind: "methodology", Fields: []Field{
			{fmt.Sprintf("needle%d %s", i, words(3)), TitleWeight}, {words(24), TextWeight}}})
	}
	return docs
}

// BenchmarkSearch100k searches 100,000 synthetic documents (and, for
// comparison, 1,000). "rare" looks for the needles' words, held by 10
// documents in either index: its cost should not depend on the index's
// size. "common" looks for five frequent words, held by thousands of
// documents: its cost is the postings it reads. postings/op is the number
// of postings of the query's terms.
func BenchmarkSearch100k(b *testing.B) {
	for _, size := range []int{1000, 100000} {
		ix := NewIndex(nil)
		for _, d := range synthetic(size) {
			ix.Add(d)
		}
		for _, q := range []struct{ name, text string }{
			{"rare", "needle0 needle3 needle7"},
			{"common", "w00001 w00002 w00005 w00010 w00050"},
		} {
			postings := 0
			for _, t := range ix.Analyzer().Terms(q.text) {
				if p := ix.terms[t]; p != nil {
					postings += len(p.list)
				}
			}
			b.Run(fmt.Sprintf("%s/docs=%d", q.name, size), func(b *testing.B) {
				query := Query{Text: q.text, Max: 10}
				for b.Loop() {
					ix.Search(query)
				}
				b.ReportMetric(float64(postings), "postings/op")
			})
		}
	}
}

// BenchmarkAdd indexes one entry-sized document.
func BenchmarkAdd(b *testing.B) {
	docs := synthetic(1000)
	ix := NewIndex(nil)
	i := 0
	for b.Loop() {
		ix.Add(docs[i%len(docs)])
		i++
	}
}
