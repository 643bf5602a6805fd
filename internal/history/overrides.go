package history

import (
	"slices"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Override is a line of the overrides log: a jump from → to at step t
// (timestamp in ISO 8601) that the graph did not offer, and why it was
// logged (no_direct_edge, unknown_capability).
func Override(t int, timestamp, from, to, reason string) pyjson.Value {
	return pyjson.Obj(
		pyjson.KV("t", t),
		pyjson.KV("timestamp", timestamp),
		pyjson.KV("from", from),
		pyjson.KV("to", to),
		pyjson.KV("reason", reason),
	)
}

// SummarizeOverrides counts the jumps by from → to, most frequent first
// (ties in order of first sight), at most ten. A missing end is "?".
func SummarizeOverrides(overrides []pyjson.Value) []pyjson.Value {
	var order []string
	counts := map[string]int{}
	for _, o := range overrides {
		from, to := o.StrOf("from"), o.StrOf("to")
		if _, ok := o.Get("from"); !ok {
			from = "?"
		}
		if _, ok := o.Get("to"); !ok {
			to = "?"
		}
		key := from + " → " + to
		if counts[key] == 0 {
			order = append(order, key)
		}
		counts[key]++
	}
	slices.SortStableFunc(order, func(a, b string) int { return counts[b] - counts[a] })
	out := []pyjson.Value{}
	for _, k := range order[:min(10, len(order))] {
		out = append(out, pyjson.Obj(pyjson.KV("jump", k), pyjson.KV("count", counts[k])))
	}
	return out
}
