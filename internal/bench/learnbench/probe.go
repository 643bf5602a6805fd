package learnbench

import (
	"math"
	"slices"
)

// ProbeScores are the ranking metrics of one probe point. A probe after e
// episodes asks, for every family, every position of its best chain (the
// chain of episode e: drifted from the drift on) and every probe sentence,
// for the ranking of next tools, and compares it with the hidden truth
// (graded relevance: best 2, acceptable alternative 1, else 0).
type ProbeScores struct {
	Episode int `json:"episode"`
	// Over the queries of the families seen in episodes before the probe.
	Hit1Seen  num `json:"hit1_seen"`
	Hit3Seen  num `json:"hit3_seen"`
	NDCG5Seen num `json:"ndcg5_seen"`
	// Over the queries of the late families (whether seen yet or not).
	Hit1Late  num `json:"hit1_late"`
	Hit3Late  num `json:"hit3_late"`
	NDCG5Late num `json:"ndcg5_late"`
	// At the shared start tools: distinct first suggestions across every
	// (family, sentence) starting there, summed over the start tools, and
	// the number of distinct best first steps they should reach.
	DistinctTop1  int `json:"distinct_top1"`
	DistinctBest  int `json:"distinct_best"`
	SeenFamilies  int `json:"seen_families"`
	QueriesScored int `json:"queries"`
}

// probeQueries lists the queries of a probe after e episodes.
func probeQueries(w *World, plan *Plan, e int) []ProbeQuery {
	drifted := e >= plan.DriftAt
	var qs []ProbeQuery
	for f := range w.Families {
		chain := w.Families[f].Chain(drifted)
		for k := range len(chain) - 1 {
			prev := ""
			if k > 0 {
				prev = chain[k-1]
			}
			for _, ctx := range plan.ProbeContexts[f] {
				qs = append(qs, ProbeQuery{Family: f, Position: k, Drifted: drifted, Context: ctx, Prev: prev, Cur: chain[k]})
			}
		}
	}
	return qs
}

// rankScores scores one ranking: hit@1, hit@3 (is the best step first, or
// in the first three) and nDCG@5 with gains 2^rel − 1.
func rankScores(w *World, q ProbeQuery, ranking []string) (hit1, hit3, ndcg float64) {
	rel := func(t string) int { return w.Role(q.Family, q.Position, q.Drifted, q.Cur, t).Relevance() }
	for i, t := range ranking[:min(3, len(ranking))] {
		if rel(t) == 2 {
			hit3 = 1
			if i == 0 {
				hit1 = 1
			}
		}
	}
	dcg := 0.0
	seen := map[string]bool{}
	for i, t := range ranking[:min(5, len(ranking))] {
		if seen[t] {
			continue // a tool counts once
		}
		seen[t] = true
		dcg += (math.Pow(2, float64(rel(t))) - 1) / math.Log2(float64(i+2))
	}
	var ideal []int
	for _, t := range w.Out(q.Cur) {
		ideal = append(ideal, rel(t))
	}
	slices.Sort(ideal)
	slices.Reverse(ideal)
	idcg := 0.0
	for i, r := range ideal[:min(5, len(ideal))] {
		idcg += (math.Pow(2, float64(r)) - 1) / math.Log2(float64(i+2))
	}
	if idcg > 0 {
		ndcg = dcg / idcg
	}
	return hit1, hit3, ndcg
}

// scoreProbe aggregates the rankings of a probe after e episodes.
func scoreProbe(w *World, plan *Plan, e int, qs []ProbeQuery, rankings [][]string) ProbeScores {
	seen := make([]bool, len(w.Families))
	for _, f := range plan.Family[:e] {
		seen[f] = true
	}
	ps := ProbeScores{Episode: e, QueriesScored: len(qs)}
	for _, s := range seen {
		if s {
			ps.SeenFamilies++
		}
	}
	var s1, s3, sn, l1, l3, ln []float64
	top1 := map[string]map[string]bool{}
	for i, q := range qs {
		h1, h3, nd := rankScores(w, q, rankings[i])
		if seen[q.Family] {
			s1, s3, sn = append(s1, h1), append(s3, h3), append(sn, nd)
		}
		if w.Families[q.Family].Late {
			l1, l3, ln = append(l1, h1), append(l3, h3), append(ln, nd)
		}
		if q.Position == 0 && len(rankings[i]) > 0 {
			if top1[q.Cur] == nil {
				top1[q.Cur] = map[string]bool{}
			}
			top1[q.Cur][rankings[i][0]] = true
		}
	}
	for _, s := range w.SharedStarts() {
		ps.DistinctTop1 += len(top1[s.Tool])
	}
	ps.DistinctBest = w.DistinctBestFirst(e >= plan.DriftAt)
	ps.Hit1Seen, ps.Hit3Seen, ps.NDCG5Seen = num(mean(s1)), num(mean(s3)), num(mean(sn))
	ps.Hit1Late, ps.Hit3Late, ps.NDCG5Late = num(mean(l1)), num(mean(l3)), num(mean(ln))
	return ps
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
