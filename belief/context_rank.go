package belief

import (
	"slices"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// A consult's context of observations (Sentinel MAX's ranker, filter and
// context builder): the believed observations that match the task, ranked
// by relevance × freshness × confidence (× GoalMatchBoost when they share
// a word with an active goal, × a source's weight), near-duplicates and
// those ranking below contextMinRank left out, at most contextPerKind per
// kind and contextMaxBytes of JSON in all, each with its rank's
// components.
const (
	contextPerKind  = 3
	contextMaxBytes = 3000
	contextMinRank  = 0.02
	// GoalMatchBoost scales the rank of an observation that shares a word
	// with an active goal.
	GoalMatchBoost = 1.25
)

// A ContextSource is one book's context a consult ranks: the agent's own
// (the first, Weight 1) or a fleet peer's. Agent names whose it is in the
// answer ("" shows no agent: a consult without peers).
type ContextSource struct {
	Index  *ContextIndex
	Agent  string
	Weight float64
}

// RankContext ranks the observations of the sources that match the text
// at now (goalTerms: the active goals' terms), and returns the answer's
// member: {"hits", "left_out"}. Ties keep the sources' order, then ids'.
func RankContext(text string, goalTerms []string, now time.Time, sources []ContextSource) pyjson.Value {
	type ranked struct {
		o                                *Observation
		rank, relevance, freshness, goal float64
		terms                            []string
		matched                          []string
		agent                            string
		peer                             int // the source's position
		weight                           float64
	}
	var rs []ranked
	for peer, src := range sources {
		c := src.Index
		for _, h := range c.ix.Search(recall.Query{Text: text}) {
			o, ok := c.obs[h.ID]
			if !ok {
				continue
			}
			terms, _ := c.ix.Terms(h.ID)
			r := ranked{o: o, relevance: h.Score / (h.Score + 1), freshness: Freshness(o, now), goal: 1, terms: terms,
				agent: src.Agent, peer: peer, weight: src.Weight}
			for _, m := range h.Matched {
				r.matched = append(r.matched, m.Term)
			}
			if recall.Matches(goalTerms, terms, 1) {
				r.goal = GoalMatchBoost
			}
			r.rank = r.relevance * r.freshness * o.Confidence.Value * r.goal * src.Weight
			if r.rank >= contextMinRank {
				rs = append(rs, r)
			}
		}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		if a.rank != b.rank {
			if a.rank > b.rank {
				return -1
			}
			return 1
		}
		if a.peer != b.peer {
			return a.peer - b.peer
		}
		return strings.Compare(a.o.ID, b.o.ID)
	})
	out := []pyjson.Value{}
	perKind := map[Kind]int{}
	var kept [][]string
	size, left := 0, 0
	for _, r := range rs {
		dup := slices.ContainsFunc(kept, func(t []string) bool { return recall.NearDuplicate(t, r.terms) })
		if dup || perKind[r.o.Key.Kind] >= contextPerKind {
			left++
			continue
		}
		rank := []pyjson.Member{pyjson.KV("score", round4(r.rank)), pyjson.KV("relevance", round4(r.relevance)),
			pyjson.KV("freshness", round4(r.freshness)), pyjson.KV("confidence", round4(r.o.Confidence.Value)),
			pyjson.KV("goal", r.goal)}
		if r.weight != 1 {
			rank = append(rank, pyjson.KV("fleet_weight", r.weight))
		}
		v := pyjson.Obj(pyjson.KV("id", r.o.ID), pyjson.KV("key", r.o.Key.String()), pyjson.KV("claim", r.o.Claim),
			pyjson.KV("status", string(r.o.Status)), pyjson.KV("confidence", round4(r.o.Confidence.Value)),
			pyjson.KV("last_supported", pyjson.ISOTime(r.o.LastSupported)),
			pyjson.KV("rank", pyjson.ObjectValue(append(rank, pyjson.KV("matched", r.matched)))))
		if r.agent != "" {
			v = v.With("agent", r.agent)
		}
		n := len(pyjson.AppendCompact(nil, v))
		if size+n > contextMaxBytes {
			left++
			continue
		}
		size += n
		perKind[r.o.Key.Kind]++
		kept = append(kept, r.terms)
		out = append(out, v)
	}
	return pyjson.Obj(pyjson.KV("hits", out), pyjson.KV("left_out", left))
}

// OwnHits lists the ids of the hits of a RankContext answer that are the
// agent's own (a peer's are not its evidence to weigh), in their order.
func OwnHits(ranked pyjson.Value, agent string) []string {
	var ids []string
	hits, _ := ranked.Get("hits")
	for _, h := range hits.Items() {
		if a := h.StrOf("agent"); a == "" || a == agent {
			ids = append(ids, h.StrOf("id"))
		}
	}
	return ids
}
