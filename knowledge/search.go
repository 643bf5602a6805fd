package knowledge

import (
	"cmp"
	"slices"
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

// SearchMethodology ranks methodology entries: keyword and capability
// overlap (entries with none are skipped), scaled by temporal decay, plus
// the structural similarity of their routing snapshot (Prepared.score has
// the whole rule). Equal scores keep the entries' order.
func SearchMethodology(entries []Entry, q Query) []Hit {
	return search(entries, q.Prepare(""), MethodologyKind, q.Max)
}

// SearchJudgmentNodes ranks judgment nodes like SearchMethodology, except
// that with a routing snapshot every node is considered, so a structural
// match alone can surface a node with no keyword in common.
func SearchJudgmentNodes(nodes []Entry, q Query) []Hit {
	return search(nodes, q.Prepare(""), JudgmentKind, q.Max)
}

func search(entries []Entry, p *Prepared, k Kind, n int) []Hit {
	var hits []Hit
	for _, e := range entries {
		if score, ok := p.ScoreEntry(k, e); ok {
			hits = append(hits, Hit{e, score})
		}
	}
	return top(hits, n)
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
	p := q.Prepare(context)
	var hits []DeadEndHit
	for _, e := range entries {
		score, ok := p.ScoreEntry(DeadEndKind, e)
		if !ok {
			continue
		}
		h := DeadEndHit{Hit: Hit{Entry: e, Score: score}, ReopenMatched: p.reopenMatched()}
		h.ReopenTriggered = len(h.ReopenMatched) > 0
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
