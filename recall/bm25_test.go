package recall

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// text is a document of one field of weight 1.
func text(id, kind, s string) Doc { return Doc{ID: id, Kind: kind, Fields: []Field{{s, TextWeight}}} }

func tiny() *Index {
	ix := NewIndex(nil)
	ix.Add(text("a", "methodology", "parser test"))      // parser 1, test 1: length 2
	ix.Add(text("b", "dead_end", "deploy test tests"))   // deploy 1, test 2: length 3
	ix.Add(text("c", "judgment", "pricing the reports")) // pric 1, report 1: length 2
	return ix
}

// One case worked by hand: N = 3, avgdl = 7/3; "test" is in 2 documents,
// IDF = ln(1 + 1.5/2.5) = ln 1.6.
//
//	a: ln 1.6 · 1·2.2 / (1 + 1.2·(0.25 + 0.75·2/(7/3))) = 0.49918
//	b: ln 1.6 · 2·2.2 / (2 + 1.2·(0.25 + 0.75·3/(7/3))) = 0.59819
func TestBM25ByHand(t *testing.T) {
	hits := tiny().Search(Query{Text: "tested"})
	require.Len(t, hits, 2)
	assert.Equal(t, "b", hits[0].ID, "two occurrences beat one despite the longer document")
	assert.Equal(t, "dead_end", hits[0].Kind)
	assert.InDelta(t, 0.5981864372218454, hits[0].Score, 1e-12)
	assert.InDelta(t, 0.4991762683023676, hits[1].Score, 1e-12)
	assert.Equal(t, []TermScore{{"test", hits[1].Score}}, hits[1].Matched)

	// Rarer terms weigh more: IDF(parser) = IDF(deploy) = ln(1 + 2.5/1.5).
	hits = tiny().Search(Query{Text: "deploy the parser"})
	require.Len(t, hits, 2)
	assert.Equal(t, "a", hits[0].ID)
	assert.InDelta(t, 1.041708310095213, hits[0].Score, 1e-12)
	assert.InDelta(t, 0.8781843311849177, hits[1].Score, 1e-12)
}

func TestSearchTable(t *testing.T) {
	ids := func(hits []Hit) []string {
		var out []string
		for _, h := range hits {
			out = append(out, h.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		q    Query
		want []string
	}{
		{"no shared term", Query{Text: "research competitor websites"}, nil},
		{"stop words only", Query{Text: "the and of"}, nil},
		{"empty", Query{}, nil},
		{"analysed terms", Query{Terms: []string{"report"}}, []string{"c"}},
		{"text and terms", Query{Text: "parser", Terms: []string{"report"}}, []string{"a", "c"}},
		{"kind filter", Query{Text: "test", Kinds: []string{"methodology", "judgment"}}, []string{"a"}},
		{"empty kind filter keeps none", Query{Text: "test", Kinds: []string{}}, nil},
		{"min score", Query{Text: "test", MinScore: 0.5}, []string{"b"}},
		{"max", Query{Text: "test parser deploy", Max: 1}, []string{"a"}},
		{"ties by ID", Query{Text: "parser deploy pricing"}, []string{"a", "c", "b"}}, // a and c score alike
	} {
		assert.Equal(t, tc.want, ids(tiny().Search(tc.q)), tc.name)
	}
}

// A word in a heavier field counts more, and a field of weight 0 is not
// indexed.
func TestFieldWeights(t *testing.T) {
	ix := NewIndex(nil)
	ix.Add(Doc{ID: "title", Fields: []Field{{"rollback", TitleWeight}, {"database migration steps", TextWeight}}})
	ix.Add(Doc{ID: "text", Fields: []Field{{"database", TitleWeight}, {"rollback migration steps", TextWeight}}})
	ix.Add(Doc{ID: "hidden", Fields: []Field{{"rollback", 0}, {"unrelated prose here", TextWeight}}})
	hits := ix.Search(Query{Text: "rollback"})
	require.Len(t, hits, 2)
	assert.Equal(t, "title", hits[0].ID)
	assert.Greater(t, hits[0].Score, hits[1].Score)
	terms, ok := ix.Terms("hidden")
	assert.True(t, ok)
	assert.Equal(t, []string{"pros", "unrelat"}, terms)
}

// Every hit explains its score: the matched terms, whose scores add up.
func TestHitExplains(t *testing.T) {
	ix := NewIndex(nil)
	ix.Add(text("x", "methodology", "run the parser tests before refactoring the parser"))
	ix.Add(text("y", "methodology", "deploy after tests pass"))
	hits := ix.Search(Query{Text: "refactor parser_test.go"})
	require.Len(t, hits, 2)
	h := hits[0]
	assert.Equal(t, "x", h.ID)
	var sum float64
	var terms []string
	for _, m := range h.Matched {
		sum += m.Score
		terms = append(terms, m.Term)
	}
	assert.Equal(t, []string{"parser", "refactor", "test"}, terms)
	assert.InDelta(t, h.Score, sum, 1e-12)
}

func TestRemove(t *testing.T) {
	ix := tiny()
	assert.False(t, ix.Remove("zzz"))
	assert.True(t, ix.Remove("b"))
	assert.False(t, ix.Remove("b"), "already removed")
	assert.Equal(t, 2, ix.Len())
	_, ok := ix.Terms("b")
	assert.False(t, ok)
	assert.Nil(t, ix.Search(Query{Text: "deploy"}))

	// The removed document no longer counts in N, df or avgdl: the index
	// scores as one that never held it.
	fresh := NewIndex(nil)
	fresh.Add(text("a", "methodology", "parser test"))
	fresh.Add(text("c", "judgment", "pricing the reports"))
	assert.Equal(t, fresh.Search(Query{Text: "test report"}), ix.Search(Query{Text: "test report"}))

	// Adding an ID again replaces the document.
	ix.Add(text("a", "dead_end", "deploy"))
	assert.Equal(t, 2, ix.Len())
	assert.Nil(t, ix.Search(Query{Text: "parser"}))
	hits := ix.Search(Query{Text: "deploy"})
	require.Len(t, hits, 1)
	assert.Equal(t, "dead_end", hits[0].Kind)
}

// Removing most documents compacts the index; it then answers as an index
// built from the remaining documents alone.
func TestRemoveCompacts(t *testing.T) {
	ix, fresh := NewIndex(nil), NewIndex(nil)
	for i := range 200 {
		d := text(fmt.Sprintf("d%03d", i), "observation", fmt.Sprintf("alpha%d beta%d shared words", i%7, i%11))
		ix.Add(d)
		if i%10 == 0 {
			fresh.Add(d)
		}
	}
	for i := range 200 {
		if i%10 != 0 {
			require.True(t, ix.Remove(fmt.Sprintf("d%03d", i)))
		}
	}
	assert.Less(t, len(ix.docs), 200, "compacted")
	assert.Equal(t, fresh.Len(), ix.Len())
	for _, q := range []string{"alpha3 beta4", "shared", "words alpha0"} {
		assert.Equal(t, fresh.Search(Query{Text: q}), ix.Search(Query{Text: q}), q)
	}
	assert.Equal(t, fresh.AppendBinary(nil), ix.AppendBinary(nil))
}

// The same documents give the same hits, in whatever order they came.
func TestSearchDeterministic(t *testing.T) {
	docs := []Doc{
		text("m1", "methodology", "retry flaky network tests with backoff"),
		text("m2", "methodology", "network tests need a local stub server"),
		text("d1", "dead_end", "retry loops hid the network failure"),
		text("j1", "judgment", "chose backoff over fixed sleeps in tests"),
	}
	a, b := NewIndex(nil), NewIndex(nil)
	for i := range docs {
		a.Add(docs[i])
		b.Add(docs[len(docs)-1-i])
	}
	q := Query{Text: "network tests retry backoff"}
	assert.Equal(t, a.Search(q), b.Search(q))
	for _, h := range a.Search(q) {
		assert.False(t, math.IsNaN(h.Score) || h.Score <= 0)
	}
}

// Max keeps the best hits of the full ranking, ties included.
func TestSearchMaxIsPrefix(t *testing.T) {
	ix := NewIndex(nil)
	for _, d := range synthetic(3000) {
		ix.Add(d)
	}
	for _, q := range []string{"w00001", "w00001 w00002 w00003", "w00100 w00200 needle1", "w19000"} {
		all := ix.Search(Query{Text: q})
		for _, max := range []int{1, 2, 5, 10, 100, len(all) + 1} {
			assert.Equal(t, all[:min(max, len(all))], ix.Search(Query{Text: q, Max: max}), "%q max %d", q, max)
		}
	}
}
