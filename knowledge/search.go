package knowledge

import (
	"cmp"
	"slices"
	"sort"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Query describes what the agent is about to do.
type Query struct {
	Keywords     []string     // compared case-insensitively with an entry's keywords
	Capabilities []string     // compared with an entry's capabilities
	Routing      pyjson.Value // the current routing snapshot; Null for none
	Now          time.Time    // the time ages are measured at
	DecayRate    float64      // per day; 0.01 halves a score in about 100 days
	// StructuralWeight scales the structural similarity of routing
	// snapshots added to the score (10 in the bridge).
	StructuralWeight float64
	Max              int // the most results returned
}

// A Hit is a ranked entry.
type Hit struct {
	Entry Entry
	Score float64
}

// overlapScore is 2 points per shared keyword and 3 per shared capability.
func (q *Query) overlapScore(e Entry, kw, caps set) float64 {
	return float64(kw.overlap(lowerSet(Strings(e, "keywords"))))*2 +
		float64(caps.overlap(setOf(Strings(e, "capabilities"))))*3
}

func (q *Query) structural(e Entry) float64 {
	if q.Routing.Kind() != pyjson.Object {
		return 0
	}
	snap, ok := e.Get("routing_snapshot")
	if !ok {
		return 0
	}
	return q.StructuralWeight * StructuralSimilarity(q.Routing, snap)
}

// SearchMethodology ranks methodology entries: keyword and capability
// overlap (entries with none are skipped), scaled by temporal decay, plus
// the structural similarity of their routing snapshot. Equal scores keep
// the entries' order.
func SearchMethodology(entries []Entry, q Query) []Hit {
	kw, caps := lowerSet(q.Keywords), setOf(q.Capabilities)
	var hits []Hit
	for _, e := range entries {
		score := q.overlapScore(e, kw, caps)
		if score <= 0 {
			continue
		}
		score *= Decay(Str(e, "date"), q.Now, q.DecayRate)
		score += q.structural(e)
		hits = append(hits, Hit{e, score})
	}
	return top(hits, q.Max)
}

// SearchJudgmentNodes ranks judgment nodes like SearchMethodology, except
// that with a routing snapshot every node is considered, so a structural
// match alone can surface a node with no keyword in common.
func SearchJudgmentNodes(nodes []Entry, q Query) []Hit {
	kw, caps := lowerSet(q.Keywords), setOf(q.Capabilities)
	hasRouting := len(q.Routing.Members()) > 0
	var hits []Hit
	for _, n := range nodes {
		score := q.overlapScore(n, kw, caps)
		if score <= 0 && !hasRouting {
			continue
		}
		score *= Decay(Str(n, "date"), q.Now, q.DecayRate)
		score += q.structural(n)
		if score > 0 {
			hits = append(hits, Hit{n, score})
		}
	}
	return top(hits, q.Max)
}

// A DeadEndHit is a ranked dead end, with whether the current context meets
// its reopen conditions.
type DeadEndHit struct {
	Hit
	ReopenTriggered bool
	ReopenMatched   []string // the shared words, sorted
}

// SearchDeadEnds ranks dead ends by keyword and capability overlap scaled
// by temporal decay. A dead end whose reopen conditions share a word with
// context is flagged, and surfaces even with no other overlap (1.5 points
// per shared word): the point of a reopen condition is to notice when
// circumstances change.
func SearchDeadEnds(entries []Entry, q Query, context string) []DeadEndHit {
	kw, caps := lowerSet(q.Keywords), setOf(q.Capabilities)
	ctxWords := setOf(Words(context))
	var hits []DeadEndHit
	for _, e := range entries {
		h := DeadEndHit{Hit: Hit{Entry: e, Score: q.overlapScore(e, kw, caps)}}
		if reopen := Str(e, "reopen_conditions"); context != "" && reopen != "" {
			for _, w := range Words(reopen) {
				if ctxWords[w] {
					h.ReopenMatched = append(h.ReopenMatched, w)
				}
			}
			if len(h.ReopenMatched) > 0 {
				sort.Strings(h.ReopenMatched)
				h.ReopenTriggered = true
				if h.Score <= 0 {
					h.Score = float64(len(h.ReopenMatched)) * 1.5
				}
			}
		}
		if h.Score <= 0 {
			continue
		}
		h.Score *= Decay(Str(e, "date"), q.Now, q.DecayRate)
		hits = append(hits, h)
	}
	slices.SortStableFunc(hits, func(a, b DeadEndHit) int { return cmp.Compare(b.Score, a.Score) })
	return hits[:min(len(hits), max(q.Max, 0))]
}

// top sorts hits by descending score, keeping the order of equals, and
// returns the first n.
func top(hits []Hit, n int) []Hit {
	slices.SortStableFunc(hits, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
	return hits[:min(len(hits), max(n, 0))]
}
