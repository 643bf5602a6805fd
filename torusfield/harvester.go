package torusfield

import (
	"crypto/sha256"
	"encoding/hex"
	"math"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Harvester detects patterns in the θ log and proposes them as artifacts.
type Harvester struct {
	MinHits    int     // 6: traversals or visits before a pattern counts
	MinMeanNet float64 // 0.35: mean reward−cost of a wormhole
}

func defaultHarvester() Harvester { return Harvester{MinHits: 6, MinMeanNet: 0.35} }

// artifactID hashes a pattern's identity (its kind and where it is) the
// way the reference does: the first 16 hex digits of SHA-256 over Python's
// json.dumps(sort_keys=True, separators=(",", ":")).
func artifactID(members ...pyjson.Member) string {
	sum := sha256.Sum256(pyjson.Canonical(pyjson.ObjectValue(members)))
	return hex.EncodeToString(sum[:8])
}

// group collects values per key in order of first appearance, as the
// reference's dict.setdefault(k, []).append(v) does.
type group[K comparable, V any] struct {
	keys []K
	vals map[K][]V
}

func (g *group[K, V]) add(k K, v V) {
	if g.vals == nil {
		g.vals = map[K][]V{}
	}
	if _, ok := g.vals[k]; !ok {
		g.keys = append(g.keys, k)
	}
	g.vals[k] = append(g.vals[k], v)
}

// Wormholes returns an artifact for every edge traversed at least MinHits
// times with a mean net reward of at least MinMeanNet.
func (h *Harvester) Wormholes(log *TraceLog, now int) []*Artifact {
	var stats group[int, float64]
	for _, s := range log.Theta {
		stats.add(s.EdgeIndex, s.Reward-s.Cost)
	}
	var out []*Artifact
	for _, ei := range stats.keys {
		vals := stats.vals[ei]
		if len(vals) < h.MinHits {
			continue
		}
		mean := sum(vals) / float64(len(vals))
		if mean < h.MinMeanNet {
			continue
		}
		out = append(out, &Artifact{
			ID:   artifactID(pyjson.Member{Key: "kind", Value: pyjson.StringValue(KindWormhole)}, pyjson.Member{Key: "edge_index", Value: pyjson.IntValue(int64(ei))}),
			Kind: KindWormhole,
			Payload: pyjson.ObjectValue([]pyjson.Member{
				{Key: "edge_index", Value: pyjson.IntValue(int64(ei))},
				{Key: "hits", Value: pyjson.IntValue(int64(len(vals)))},
				{Key: "mean_net", Value: pyjson.FloatValue(pyjson.Round(mean, 6))},
			}),
			Score:    mean * logCount(len(vals)),
			CreatedT: now,
		})
	}
	return out
}

// Attractors returns an artifact for every node that is the destination of
// more than 15% of the logged steps and of at least MinHits of them.
func (h *Harvester) Attractors(log *TraceLog, now int) []*Artifact {
	var visits group[string, struct{}]
	for _, s := range log.Theta {
		visits.add(s.Dst, struct{}{})
	}
	total := max(len(log.Theta), 1)
	var out []*Artifact
	for _, node := range visits.keys {
		count := len(visits.vals[node])
		freq := float64(count) / float64(total)
		if !(freq > 0.15 && count >= h.MinHits) {
			continue
		}
		out = append(out, &Artifact{
			ID:   artifactID(pyjson.Member{Key: "kind", Value: pyjson.StringValue(KindAttractor)}, pyjson.Member{Key: "node", Value: pyjson.StringValue(node)}),
			Kind: KindAttractor,
			Payload: pyjson.ObjectValue([]pyjson.Member{
				{Key: "node", Value: pyjson.StringValue(node)},
				{Key: "visits", Value: pyjson.IntValue(int64(count))},
				{Key: "frequency", Value: pyjson.FloatValue(pyjson.Round(freq, 4))},
			}),
			Score:    freq * logCount(count),
			CreatedT: now,
		})
	}
	return out
}

// Resonances returns an artifact for every edge traversed at least six
// times at intervals whose coefficient of variation is below 0.3. It needs
// at least 20 logged steps.
func (h *Harvester) Resonances(log *TraceLog, now int) []*Artifact {
	if len(log.Theta) < 20 {
		return nil
	}
	var times group[int, int]
	for _, s := range log.Theta {
		times.add(s.EdgeIndex, s.T)
	}
	var out []*Artifact
	for _, ei := range times.keys {
		ts := times.vals[ei]
		if len(ts) < 4 {
			continue
		}
		intervals := make([]float64, len(ts)-1)
		for i := range intervals {
			intervals[i] = float64(ts[i+1] - ts[i])
		}
		mean := sum(intervals) / float64(len(intervals))
		if mean < 1 {
			continue
		}
		variance := 0.0
		for _, iv := range intervals {
			d := iv - mean
			variance += float64(d * d) // the conversion keeps it from fusing into an FMA
		}
		variance /= float64(len(intervals))
		cv := math.Sqrt(variance) / mean
		if !(cv < 0.3 && len(ts) >= 6) {
			continue
		}
		out = append(out, &Artifact{
			ID:   artifactID(pyjson.Member{Key: "kind", Value: pyjson.StringValue(KindResonance)}, pyjson.Member{Key: "edge_index", Value: pyjson.IntValue(int64(ei))}),
			Kind: KindResonance,
			Payload: pyjson.ObjectValue([]pyjson.Member{
				{Key: "edge_index", Value: pyjson.IntValue(int64(ei))},
				{Key: "period", Value: pyjson.FloatValue(pyjson.Round(mean, 2))},
				{Key: "cv", Value: pyjson.FloatValue(pyjson.Round(cv, 4))},
				{Key: "occurrences", Value: pyjson.IntValue(int64(len(ts)))},
			}),
			Score:    (1.0 - cv) * logCount(len(ts)),
			CreatedT: now,
		})
	}
	return out
}

// Detect runs every detector: wormholes, then attractors, then resonances.
func (h *Harvester) Detect(log *TraceLog, now int) []*Artifact {
	out := h.Wormholes(log, now)
	out = append(out, h.Attractors(log, now)...)
	return append(out, h.Resonances(log, now)...)
}

// validate keeps the candidates with a positive score.
func validate(cands []*Artifact) []*Artifact {
	var out []*Artifact
	for _, a := range cands {
		if a.Score > 0 {
			out = append(out, a)
		}
	}
	return out
}

// logCount returns ln(1+n) as the C library computes it (see logTable).
func logCount(n int) float64 {
	if n >= 0 && n+1 < len(logTable) {
		return logTable[n+1]
	}
	return math.Log(1 + float64(n))
}

// sum adds left to right, as Python's sum() does.
func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}
