package dashboard

import (
	"math"
	"strconv"
)

// These small text helpers are the table's own: the bridge has its like
// for its answers' sentences, but the dashboard sits below it and imports
// none of it.

// runePrefix is s's first n runes (all of s when it is shorter).
func runePrefix(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// countOf is "9 of 12" for whole counts, else "weight 1.5 of 2": a
// learning model's weighted counts are named as weights.
func countOf(s, n float64) string {
	if s == math.Trunc(s) && n == math.Trunc(n) {
		return fmtCount(s) + " of " + fmtCount(n)
	}
	return "weight " + fmtCount(s) + " of " + fmtCount(n)
}

// fmtCount writes a count whole when it is, else with one decimal.
func fmtCount(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}
