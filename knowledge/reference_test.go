package knowledge_test

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// The searches as the reference's bridge.py writes them, over decoded
// entries with sets: the oracle the one scoring routine (features, from
// entries or from index lines) is checked against. Only tests use it.

type set map[string]bool

func setOf(xs []string) set {
	s := set{}
	for _, x := range xs {
		s[x] = true
	}
	return s
}

func lowerSet(xs []string) set {
	s := set{}
	for _, x := range xs {
		s[strings.ToLower(x)] = true
	}
	return s
}

func (a set) overlap(b set) int {
	n := 0
	for x := range a {
		if b[x] {
			n++
		}
	}
	return n
}

func jaccard(a, b set) float64 {
	inter := a.overlap(b)
	return float64(inter) / float64(max(len(a)+len(b)-inter, 1))
}

func refOverlap(q knowledge.Query, e knowledge.Entry) float64 {
	return float64(lowerSet(q.Keywords).overlap(lowerSet(knowledge.Strings(e, "keywords"))))*2 +
		float64(setOf(q.Capabilities).overlap(setOf(knowledge.Strings(e, "capabilities"))))*3
}

func refDecay(q knowledge.Query, e knowledge.Entry) float64 {
	return knowledge.Decay(e.StrOf("date"), q.Now, q.DecayRate)
}

func refStructural(q knowledge.Query, e knowledge.Entry) float64 {
	snap, ok := e.Get("routing_snapshot")
	if q.Routing.Kind() != pyjson.Object || !ok {
		return 0
	}
	return q.StructuralWeight * refSimilarity(q.Routing, snap)
}

func targets(snapshot pyjson.Value) set {
	paths, _ := snapshot.Get("top_paths")
	s := set{}
	for _, p := range paths.Items() {
		to, _ := p.Get("to")
		s[to.Str()] = true
	}
	return s
}

func energized(m pyjson.Value) set {
	s := set{}
	for _, mem := range m.Members() {
		if f, ok := mem.Value.Float(); ok && f > 0.01 {
			s[mem.Key] = true
		}
	}
	return s
}

// refSimilarity is the reference's structural similarity of two routing
// snapshots: the mean of the components both can compare.
func refSimilarity(current, historical pyjson.Value) float64 {
	score, components := 0.0, 0
	if cc, hc := current.StrOf("cursor"), historical.StrOf("cursor"); cc != "" && hc != "" {
		components++
		if cc == hc {
			score += 1.0
		}
	}
	if cur, hist := targets(current), targets(historical); len(cur) > 0 && len(hist) > 0 {
		components++
		score += jaccard(cur, hist)
	}
	ce, _ := current.Get("context_energy")
	he, _ := historical.Get("context_energy")
	if len(ce.Members()) > 0 && len(he.Members()) > 0 {
		components++
		all := set{}
		for _, m := range append(ce.Members(), he.Members()...) {
			all[m.Key] = true
		}
		score += float64(energized(ce).overlap(energized(he))) / float64(len(all))
	}
	ca, ha := setOf(knowledge.Strings(current, "active_artifacts")), setOf(knowledge.Strings(historical, "active_artifacts"))
	if len(ca) > 0 || len(ha) > 0 {
		components++
		if len(ca) > 0 && len(ha) > 0 {
			score += jaccard(ca, ha)
		}
	}
	return score / float64(max(components, 1))
}

// refSearch ranks entries of a kind as the reference does, with each dead
// end's reopen words the context matched.
func refSearch(kind string, entries []knowledge.Entry, q knowledge.Query, context string) ([]knowledge.Hit, [][]string) {
	type hit struct {
		knowledge.Hit
		matched []string
	}
	var hits []hit
	for _, e := range entries {
		score := refOverlap(q, e)
		var matched []string
		switch kind {
		case "methodology":
			if score <= 0 {
				continue
			}
			score = score*refDecay(q, e) + refStructural(q, e)
		case "judgment_nodes":
			if score <= 0 && len(q.Routing.Members()) == 0 {
				continue
			}
			if score = score*refDecay(q, e) + refStructural(q, e); score <= 0 {
				continue
			}
		case "dead_ends":
			ctx := setOf(knowledge.Words(context))
			if reopen := e.StrOf("reopen_conditions"); context != "" && reopen != "" {
				for _, w := range knowledge.Words(reopen) {
					if ctx[w] {
						matched = append(matched, w)
					}
				}
				sort.Strings(matched)
				if len(matched) > 0 && score <= 0 {
					score = float64(len(matched)) * 1.5
				}
			}
			if score <= 0 {
				continue
			}
			score *= refDecay(q, e)
		}
		hits = append(hits, hit{knowledge.Hit{Entry: e, Score: score}, matched})
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.Score, a.Score) })
	hits = hits[:min(len(hits), max(q.Max, 0))]
	var out []knowledge.Hit
	var matched [][]string
	for _, h := range hits {
		out = append(out, h.Hit)
		matched = append(matched, h.matched)
	}
	return out, matched
}
