// Package suggest finds the names nearest a misspelt one: the "did you
// mean" of an unknown field, key or capability. It is one rule for every
// such hint, so a typo is answered the same way wherever it is made.
package suggest

import (
	"slices"
	"strings"
)

// Closest returns up to n names nearest to name by edit distance, nearest
// first, ties in the order of names.
func Closest(name string, names []string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	cands := make([]cand, len(names))
	for i, c := range names {
		cands[i] = cand{c, Distance(name, c)}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return a.d - b.d })
	n = min(max(n, 0), len(cands))
	out := make([]string, 0, n)
	for _, c := range cands[:n] {
		out = append(out, c.name)
	}
	return out
}

// Within2 is the name of names a misspelt name most likely meant: the
// closest by edit distance (ties in the order of names) when it is within
// two edits, else "". Unlike Near it keeps case and takes no prefix, so
// an unknown flag or member is answered by spelling alone.
func Within2(name string, names []string) string {
	near := Closest(name, names, 1)
	if len(near) == 0 || Distance(name, near[0]) > 2 {
		return ""
	}
	return near[0]
}

// Distance is the Levenshtein distance between two strings, by rune.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Near returns the name of names that name is most likely a misspelling
// of, or "" when none is close: within two edits, or, for a name of at
// least four characters, a prefix of it or it of the name ("timeout" for
// "timeout_ms", "permissions_list" for "permissions"). Case is ignored.
func Near(name string, names []string) string {
	if len(names) == 0 {
		return ""
	}
	lower := strings.ToLower(name)
	lowered := make([]string, len(names))
	for i, n := range names {
		lowered[i] = strings.ToLower(n)
	}
	best := Closest(lower, lowered, 1)[0]
	if Distance(lower, best) <= 2 {
		return names[slices.Index(lowered, best)]
	}
	if len(lower) >= 4 {
		for i, n := range lowered {
			if strings.HasPrefix(n, lower) || strings.HasPrefix(lower, n) && len(n) >= 4 {
				return names[i]
			}
		}
	}
	return ""
}
