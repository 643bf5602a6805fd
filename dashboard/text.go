package dashboard

import (
	"math"
	"strconv"
)

// These small text helpers are the table's own (a cut to n characters is
// pyjson.Prefix, shared with every layer).

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
