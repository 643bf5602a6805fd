package recall

import "slices"

// NearDuplicateThreshold is the Jaccard similarity from which two entries'
// term sets say the same thing. Chosen with TestNearDuplicate: rewordings
// of one lesson score 0.62 to 1 there, lessons about the same tool or task
// with different advice 0.08 to 0.40.
const NearDuplicateThreshold = 0.5

// Jaccard returns the share of terms two term sets have in common: the
// size of their intersection over the size of their union, 0 when both
// are empty. Repeated terms count once; the sets need not be sorted.
func Jaccard(a, b []string) float64 {
	a, b = set(a), set(b)
	n := shared(a, b)
	if u := len(a) + len(b) - n; u > 0 {
		return float64(n) / float64(u)
	}
	return 0
}

// NearDuplicate reports whether two entries' term sets (Analyzer.Terms of
// their texts) are close enough that a new reflection should be folded
// into the existing one instead of kept beside it: Jaccard at least
// NearDuplicateThreshold.
func NearDuplicate(a, b []string) bool { return Jaccard(a, b) >= NearDuplicateThreshold }

// Matches reports whether a context and an entry share at least minShared
// terms (at least one whatever minShared says): a context sharing no
// stemmed content word with an entry is not about it, and the entry must
// neither be returned nor weigh on the decision (a dead end penalises a
// capability only when it matches the context).
func Matches(contextTerms, docTerms []string, minShared int) bool {
	return shared(set(contextTerms), set(docTerms)) >= max(minShared, 1)
}

// set returns terms sorted and without repeats, copying them only when
// they are not already.
func set(terms []string) []string {
	for i := 1; i < len(terms); i++ {
		if terms[i-1] >= terms[i] {
			s := slices.Clone(terms)
			slices.Sort(s)
			return slices.Compact(s)
		}
	}
	return terms
}

// shared counts the terms two sorted sets have in common.
func shared(a, b []string) int {
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}
