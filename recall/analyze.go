package recall

import (
	"slices"

	"github.com/unified-cognitive-substrate/ucs/learn"
)

// An Analyzer turns text into index terms: the content terms of
// learn.Terms (lowercased words split at anything but a letter or a digit,
// so identifiers split, without stop words and words shorter than three
// characters, reduced to a light stem), each replaced by its canonical
// term when the synonym table lists it as a variant.
//
// Documents, queries, reopen conditions and contexts must be analysed by
// analyzers with the same synonym table for their terms to meet. The zero
// Analyzer and a nil *Analyzer have no synonyms. An Analyzer is safe for
// concurrent use.
type Analyzer struct {
	syn Synonyms
}

// NewAnalyzer returns an analyzer that maps terms through syn (the zero
// Synonyms for none).
func NewAnalyzer(syn Synonyms) *Analyzer { return &Analyzer{syn: syn} }

// Synonyms returns the analyzer's synonym table.
func (a *Analyzer) Synonyms() Synonyms {
	if a == nil {
		return Synonyms{}
	}
	return a.syn
}

// Terms returns the index terms of text, sorted, without repeats. Without
// synonyms they are exactly learn.Terms(text).
func (a *Analyzer) Terms(text string) []string {
	var out []string
	a.each(text, func(t string) { out = append(out, t) })
	slices.Sort(out)
	return slices.Compact(out)
}

// A TermCount is a term and how many times it occurs.
type TermCount struct {
	Term string
	N    int
}

// Counts returns the index terms of text with the number of times each
// occurs, sorted by term. Two occurrences of a variant and one of its
// canonical term count three of the canonical term.
func (a *Analyzer) Counts(text string) []TermCount {
	var all []string
	a.each(text, func(t string) { all = append(all, t) })
	slices.Sort(all)
	var out []TermCount
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j] == all[i] {
			j++
		}
		out = append(out, TermCount{all[i], j - i})
		i = j
	}
	return out
}

// each calls yield with every term occurrence of text, in order. It cuts
// text at the ASCII characters learn.Terms splits at (anything but a
// letter or a digit) and lets learn.Terms normalise each piece, so the two
// always agree on what a term is; a piece learn.Terms splits further (at a
// non-ASCII separator such as an en dash) yields each of its terms once.
func (a *Analyzer) each(text string, yield func(string)) {
	syn := a.Synonyms()
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && (text[i] >= 0x80 || isAlnum(text[i])) {
			if start < 0 {
				start = i
			}
			continue
		}
		// An ASCII piece of fewer than three letters has no term (a
		// non-ASCII letter may lowercase to more bytes).
		if start >= 0 && (i-start >= 3 || hasNonASCII(text[start:i])) {
			for _, t := range learn.Terms(text[start:i]) {
				yield(syn.canonical(t))
			}
		}
		start = -1
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}
