package bridge

import (
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// synonyms are the reference's hand-written additions to the keyword map.
// They name Aegis capabilities; for another manifest only the capabilities
// it has count, so a custom manifest is never routed to a tool it lacks.
var synonyms = [...]struct {
	word string
	caps []string
}{
	{"research", []string{"web_search", "web_fetch", "browser", "foundry_research"}},
	{"search", []string{"web_search", "web_fetch"}},
	{"write", []string{"write", "foundry_write_skill", "foundry_write_extension"}},
	{"code", []string{"exec", "write", "edit", "foundry_implement"}},
	{"debug", []string{"exec", "read", "edit", "foundry_implement"}},
	{"monitor", []string{"session_status", "foundry_metrics", "foundry_overseer"}},
	{"deploy", []string{"exec", "process", "foundry_restart"}},
	{"automate", []string{"foundry_write_hook", "foundry_crystallize", "process"}},
	{"create", []string{"write", "foundry_write_skill", "foundry_write_extension"}},
	{"analyze", []string{"read", "foundry_research", "foundry_overseer"}},
	{"fetch", []string{"web_fetch", "browser"}},
	{"browse", []string{"browser", "web_fetch"}},
	{"message", []string{"message", "sessions_send", "tts"}},
	{"delegate", []string{"sessions_spawn", "subagents", "agents_list"}},
	{"optimize", []string{"foundry_evolve", "foundry_apply_improvement", "foundry_metrics"}},
	{"learn", []string{"foundry_learnings", "foundry_get_insights", "foundry_record_feedback"}},
	{"test", []string{"exec", "foundry_track_outcome", "foundry_metrics"}},
	{"publish", []string{"foundry_publish_ability", "foundry_marketplace"}},
	{"fix", []string{"edit", "exec", "foundry_apply_improvement"}},
	{"plan", []string{"foundry_research", "foundry_get_insights", "sessions_spawn"}},
	{"audit", []string{"read", "sessions_history", "foundry_overseer"}},
	{"track", []string{"foundry_track_outcome", "foundry_metrics", "session_status"}},
}

// keywordMap maps a word to the capabilities it evokes, built from a
// manifest as the reference builds it: the words (three letters or more)
// of every semantic label map to the label's capabilities, the words of
// every capability name and the name itself to the capability, and the
// synonyms to the capabilities the manifest has.
type keywordMap map[string][]string

func buildKeywordMap(m *torusfield.Manifest) keywordMap {
	sets := map[string]map[string]bool{}
	add := func(word string, caps ...string) {
		s := sets[word]
		if s == nil {
			s = map[string]bool{}
			sets[word] = s
		}
		for _, c := range caps {
			if m.Has(c) {
				s[c] = true
			}
		}
	}
	for _, l := range m.SemanticMap {
		for _, w := range splitName(l.Label) {
			add(w, l.Targets...)
		}
	}
	for _, c := range m.Capabilities {
		for _, w := range splitName(c.Name) {
			add(w, c.Name)
		}
		add(c.Name, c.Name)
	}
	for _, s := range synonyms {
		add(s.word, s.caps...)
	}
	km := make(keywordMap, len(sets))
	for w, s := range sets {
		caps := make([]string, 0, len(s))
		for c := range s {
			caps = append(caps, c)
		}
		slices.Sort(caps)
		km[w] = caps
	}
	return km
}

// splitName splits a label or name into lowercase words of three letters or
// more at underscores and hyphens.
func splitName(s string) []string {
	var out []string
	for _, w := range strings.Split(strings.ReplaceAll(strings.ToLower(s), "-", "_"), "_") {
		if len(w) >= 3 {
			out = append(out, w)
		}
	}
	return out
}

// resolveCapabilities finds the capabilities a task touches: the explicit
// ones the manifest knows, those the context's words evoke, and those of
// recent methodology entries sharing a keyword with the context. Sorted.
func resolveCapabilities(m *torusfield.Manifest, km keywordMap, context string, explicit []string, recent []knowledge.Entry) []string {
	caps := map[string]bool{}
	for _, c := range explicit {
		if m.Has(c) {
			caps[c] = true
		}
	}
	words := knowledge.Words(context)
	for _, w := range words {
		for _, c := range km[w] {
			caps[c] = true
		}
	}
	wordSet := map[string]bool{}
	for _, w := range words {
		wordSet[w] = true
	}
	for _, e := range recent {
		shared := false
		for _, k := range knowledge.Strings(e, "keywords") {
			if wordSet[strings.ToLower(k)] {
				shared = true
				break
			}
		}
		if !shared {
			continue
		}
		for _, c := range knowledge.Strings(e, "capabilities") {
			if m.Has(c) {
				caps[c] = true
			}
		}
	}
	out := make([]string, 0, len(caps))
	for c := range caps {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// closest returns up to n names nearest to name by edit distance, nearest
// first, ties in manifest order: the suggestions of an unknown-capability
// warning.
func closest(name string, names []string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	cands := make([]cand, len(names))
	for i, c := range names {
		cands[i] = cand{c, editDistance(name, c)}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return a.d - b.d })
	out := make([]string, 0, n)
	for _, c := range cands[:min(n, len(cands))] {
		out = append(out, c.name)
	}
	return out
}

// editDistance is the Levenshtein distance between two strings, by rune.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
