package bridge

import "github.com/unified-cognitive-substrate/ucs/internal/suggest"

// closest returns up to n names nearest to name by edit distance, nearest
// first, ties in manifest order: the suggestions of an unknown-capability
// warning.
func closest(name string, names []string, n int) []string {
	return suggest.Closest(name, names, n)
}

// Nearest is the name of names a misspelt name most likely meant: the
// closest within an edit distance of 2, else "". Unknown fields and
// unknown flags both say "did you mean" by it.
func Nearest(name string, names []string) string {
	near := closest(name, names, 1)
	if len(near) == 0 || editDistance(name, near[0]) > 2 {
		return ""
	}
	return near[0]
}

// editDistance is the Levenshtein distance between two strings, by rune.
func editDistance(a, b string) int { return suggest.Distance(a, b) }
