package history

import (
	"slices"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// An Allocation is how often a period's reports named one action, and how
// those went.
type Allocation struct {
	Action string
	Count  int
	// rate counts the outcomes by word: the four statuses first, then any
	// other word as spelled, in order of first sight.
	rate []pyjson.Member
}

// Allocate counts a period's action-log lines by action, the most used
// first (ties in order of first use). A line without an action counts as
// "unknown", one without a success as neutral.
func Allocate(lines []pyjson.Value) []Allocation {
	var order []*Allocation
	byAction := map[string]*Allocation{}
	for _, a := range lines {
		name := a.StrOf("action")
		if _, ok := a.Get("action"); !ok {
			name = "unknown"
		}
		al := byAction[name]
		if al == nil {
			al = &Allocation{Action: name, rate: []pyjson.Member{
				pyjson.KV(outcome.Success.String(), 0), pyjson.KV(outcome.Partial.String(), 0),
				pyjson.KV(outcome.Failure.String(), 0), pyjson.KV(outcome.Neutral.String(), 0)}}
			byAction[name] = al
			order = append(order, al)
		}
		al.Count++
		word := a.StrOf("success") // as spelled: an odd word gets a count of its own
		if _, ok := a.Get("success"); !ok {
			word = outcome.Neutral.String()
		}
		al.rate = bump(al.rate, word)
	}
	slices.SortStableFunc(order, func(a, b *Allocation) int { return b.Count - a.Count })
	out := make([]Allocation, len(order))
	for i, al := range order {
		out[i] = *al
	}
	return out
}

// AllocationValues are the allocations as synthesize shows them, each
// with its share of total in percent.
func AllocationValues(allocs []Allocation, total int) []pyjson.Value {
	out := []pyjson.Value{}
	for _, al := range allocs {
		out = append(out, pyjson.Obj(
			pyjson.KV("action", al.Action),
			pyjson.KV("count", al.Count),
			pyjson.KV("pct", pyjson.Round(float64(al.Count)/float64(max(total, 1))*100, 1)),
			pyjson.KV("success_rate", pyjson.ObjectValue(al.rate)),
		))
	}
	return out
}

// Misalignment says a much used action has no methodology entry.
func Misalignment(al Allocation) pyjson.Value {
	return pyjson.Obj(
		pyjson.KV("type", "high_traffic_no_methodology"),
		pyjson.KV("action", al.Action),
		pyjson.KV("count", al.Count),
		pyjson.KV("message", "'"+al.Action+"' used "+strconv.Itoa(al.Count)+" times but has no methodology entry."),
	)
}

// bump adds one to a counter member, appending it when new.
func bump(ms []pyjson.Member, key string) []pyjson.Member {
	for i := range ms {
		if ms[i].Key == key {
			n, _ := ms[i].Value.Int()
			ms[i].Value = pyjson.IntValue(n + 1)
			return ms
		}
	}
	return append(ms, pyjson.KV(key, 1))
}
