// Package phrase holds the few ways ucs puts numbers and text into words
// for people, shared by the operations' answers (package bridge), the
// advice's explanations (package advice) and the dashboard's tables,
// which sit on different layers: one home at the bottom, so a count reads
// the same wherever it is shown.
package phrase

import (
	"math"
	"strconv"
)

// RunePrefix is s's first n runes (all of s when it is shorter), as
// Python's s[:n]: the reference cuts its summaries by characters, never
// inside one.
func RunePrefix(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// Count writes a count whole when it is, else with one decimal: a
// learning model's counts are weights (a partial counts half).
func Count(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// CountOf is "9 of 12" for whole counts, else "weight 1.5 of 2": a
// learning model's weighted counts are named as weights.
func CountOf(s, n float64) string {
	if s == math.Trunc(s) && n == math.Trunc(n) {
		return Count(s) + " of " + Count(n)
	}
	return "weight " + Count(s) + " of " + Count(n)
}

// TimesOf is a learning model's successes of its outcomes for people:
// "9 of 9 times" when the weights are whole (each report weighed 1), else
// "with weight 1.5 of 2": a partial counts half and a person's verdict
// more, so a weight is no number of times, and the text must not say it
// is.
func TimesOf(s, n float64) string {
	if s == math.Trunc(s) && n == math.Trunc(n) {
		return CountOf(s, n) + " times"
	}
	return "with " + CountOf(s, n)
}
