package knowledge

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// StructuralSimilarity compares two routing snapshots, the "pattern of the
// pattern": the same cursor, the overlap of the top paths' destinations,
// the capabilities energized by context in both, and the overlap of active
// artifacts. Each comparable component scores in [0, 1]; the result is
// their mean, 0 when none compares.
func StructuralSimilarity(current, historical pyjson.Value) float64 {
	score := 0.0
	components := 0

	if cc, hc := Str(current, "cursor"), Str(historical, "cursor"); cc != "" && hc != "" {
		components++
		if cc == hc {
			score += 1.0
		}
	}

	cur, hist := pathTargets(current), pathTargets(historical)
	if len(cur) > 0 && len(hist) > 0 {
		components++
		score += jaccard(cur, hist)
	}

	ce, _ := current.Get("context_energy")
	he, _ := historical.Get("context_energy")
	if len(ce.Members()) > 0 && len(he.Members()) > 0 {
		components++
		all := set{}
		for _, m := range ce.Members() {
			all[m.Key] = true
		}
		for _, m := range he.Members() {
			all[m.Key] = true
		}
		shared := energized(ce).overlap(energized(he))
		score += float64(shared) / float64(len(all))
	}

	ca, ha := setOf(Strings(current, "active_artifacts")), setOf(Strings(historical, "active_artifacts"))
	if len(ca) > 0 || len(ha) > 0 {
		components++
		if len(ca) > 0 && len(ha) > 0 {
			score += jaccard(ca, ha)
		}
	}
	return score / float64(max(components, 1))
}

func pathTargets(snapshot pyjson.Value) set {
	paths, _ := snapshot.Get("top_paths")
	s := set{}
	for _, p := range paths.Items() {
		to, _ := p.Get("to")
		s[to.Str()] = true
	}
	return s
}

// energized returns the capabilities with more than 0.01 of context energy.
func energized(m pyjson.Value) set {
	s := set{}
	for _, mem := range m.Members() {
		if f, ok := mem.Value.Float(); ok && f > 0.01 {
			s[mem.Key] = true
		}
	}
	return s
}

func jaccard(a, b set) float64 {
	inter := a.overlap(b)
	union := len(a) + len(b) - inter
	return float64(inter) / float64(max(union, 1))
}
