package recall

import (
	"slices"
	"testing"

	"github.com/unified-cognitive-substrate/ucs/learn"
)

// FuzzAnalyzer: the analyzer never panics; its terms are sorted and
// unique, are learn.Terms' without synonyms and those mapped through the
// table with them, and Counts counts exactly those terms.
func FuzzAnalyzer(f *testing.F) {
	for _, s := range []string{
		"fix the failing unit test in parser_test.go", "Repairing crashed deploys; errors, ERRORS",
		"naïve café – résumé", "\xff\xfe broken utf8 \xc3", "İSTANBUL Kelvin \u212a", "a b c", "",
	} {
		f.Add(s)
	}
	plain := NewAnalyzer(Synonyms{})
	syn := NewAnalyzer(mustSynonyms(f, map[string][]string{"fix": {"repair"}, "failure": {"error", "crash"}}))
	f.Fuzz(func(t *testing.T, text string) {
		terms := plain.Terms(text)
		if !slices.IsSorted(terms) || len(slices.Compact(slices.Clone(terms))) != len(terms) {
			t.Fatalf("%q: terms %q not sorted and unique", text, terms)
		}
		if want := learn.Terms(text); !slices.Equal(terms, want) {
			t.Fatalf("%q: terms %q, learn.Terms %q", text, terms, want)
		}
		var mapped []string
		for _, w := range terms {
			mapped = append(mapped, syn.Synonyms().Canonical(w))
		}
		slices.Sort(mapped)
		if got := syn.Terms(text); !slices.Equal(got, slices.Compact(mapped)) {
			t.Fatalf("%q: with synonyms %q, want %q", text, got, mapped)
		}
		counts := syn.Counts(text)
		var counted []string
		for _, c := range counts {
			if c.N < 1 {
				t.Fatalf("%q: count %v", text, c)
			}
			counted = append(counted, c.Term)
		}
		if !slices.Equal(counted, syn.Terms(text)) {
			t.Fatalf("%q: counts of %q, terms %q", text, counted, syn.Terms(text))
		}
	})
}
