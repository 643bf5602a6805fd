package relevance

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

// Keywords answers which capabilities a word evokes, as the reference's
// keyword map does: the words (three letters or more) of every semantic
// label map to the label's capabilities, the words of every capability name
// and the name itself to the capability, and the synonyms to the
// capabilities the manifest has. A consult looks up a few dozen words, so
// each is answered by scanning the manifest when first asked, instead of
// building the whole map (a fifth of a millisecond) on every call.
type Keywords struct {
	m     *torusfield.Manifest
	cache map[string][]string
}

// NewKeywords answers for the manifest m.
func NewKeywords(m *torusfield.Manifest) *Keywords {
	return &Keywords{m: m, cache: map[string][]string{}}
}

// Evoke returns the capabilities a word evokes, sorted, without repeats.
func (k *Keywords) Evoke(word string) []string {
	if caps, ok := k.cache[word]; ok {
		return caps
	}
	var caps []string
	add := func(cs ...string) {
		for _, c := range cs {
			if k.m.Has(c) && !slices.Contains(caps, c) {
				caps = append(caps, c)
			}
		}
	}
	if len(word) >= 3 {
		for _, l := range k.m.SemanticMap {
			if hasNamePart(l.Label, word) {
				add(l.Targets...)
			}
		}
		for _, c := range k.m.Capabilities {
			if hasNamePart(c.Name, word) {
				add(c.Name)
			}
		}
	}
	if k.m.Has(word) {
		add(word)
	}
	for _, s := range synonyms {
		if s.word == word {
			add(s.caps...)
		}
	}
	slices.Sort(caps)
	k.cache[word] = caps
	return caps
}

// hasNamePart reports whether word is one of splitName(s): s's lowercase
// parts between underscores and hyphens. It allocates only for a part with
// capitals.
func hasNamePart(s, word string) bool {
	// Most names and labels hold no such word: a substring search (on s
	// itself when it has no capitals, ToLower's no-copy case) rejects them
	// before the split.
	if !strings.Contains(strings.ToLower(s), word) {
		return false
	}
	for len(s) > 0 {
		i := strings.IndexAny(s, "_-")
		part := s
		if i >= 0 {
			part, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if lower := strings.ToLower(part); len(lower) >= 3 && lower == word {
			return true
		}
	}
	return false
}

// ResolveCapabilities finds the capabilities a task touches: the explicit
// ones the manifest knows, those the context's words evoke, and those of
// recent methodology entries sharing a keyword with the context. Sorted.
func ResolveCapabilities(m *torusfield.Manifest, kw *Keywords, context string, explicit []string, recent []knowledge.Entry) []string {
	caps := map[string]bool{}
	for _, c := range explicit {
		if m.Has(c) {
			caps[c] = true
		}
	}
	words := knowledge.Words(context)
	for _, w := range words {
		for _, c := range kw.Evoke(w) {
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
