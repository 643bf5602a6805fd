package relevance

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// wholeKeywordMap builds the reference's keyword map in full, as ucs did
// before it answered words on demand: the oracle for Keywords.Evoke.
func wholeKeywordMap(m *torusfield.Manifest) map[string][]string {
	sets := map[string]map[string]bool{}
	add := func(word string, caps ...string) {
		if sets[word] == nil {
			sets[word] = map[string]bool{}
		}
		for _, c := range caps {
			if m.Has(c) {
				sets[word][c] = true
			}
		}
	}
	split := func(s string) (out []string) {
		for _, w := range strings.Split(strings.ReplaceAll(strings.ToLower(s), "-", "_"), "_") {
			if len(w) >= 3 {
				out = append(out, w)
			}
		}
		return out
	}
	for _, l := range m.SemanticMap {
		for _, w := range split(l.Label) {
			add(w, l.Targets...)
		}
	}
	for _, c := range m.Capabilities {
		for _, w := range split(c.Name) {
			add(w, c.Name)
		}
		add(c.Name, c.Name)
	}
	for _, s := range synonyms {
		add(s.word, s.caps...)
	}
	km := map[string][]string{}
	for w, s := range sets {
		var caps []string
		for c := range s {
			caps = append(caps, c)
		}
		slices.Sort(caps)
		km[w] = caps
	}
	return km
}

func TestKeywordsEvokeLikeTheWholeMap(t *testing.T) {
	custom, err := torusfield.ParseManifest([]byte(`{"capabilities": [
		{"name": "Deploy-Service", "u": 0.5, "c": 0.5, "n": 0.5},
		{"name": "web_search", "u": 0.5, "c": 0.5, "n": 0.5},
		{"name": "ab", "u": 0.5, "c": 0.5, "n": 0.5}],
		"semantic_map": {"Research_and-WEB": ["web_search"], "ẞtraße_ops": ["ab"]}}`))
	require.NoError(t, err)
	for name, m := range map[string]*torusfield.Manifest{"aegis": torusfield.DefaultManifest(), "custom": custom} {
		t.Run(name, func(t *testing.T) {
			whole := wholeKeywordMap(m)
			// Every key of the map, every capability name, and words that
			// are no key at all.
			words := []string{"", "ab", "zzz", "the", "web", "Web", "research", "ßtraße", "straße", "deploy-service"}
			for w := range whole {
				words = append(words, w)
			}
			for _, c := range m.Capabilities {
				words = append(words, c.Name, strings.ToLower(c.Name))
				words = append(words, knowledge.Words(c.Name)...)
			}
			kw := NewKeywords(m)
			for _, w := range words {
				got := kw.Evoke(w)
				if len(whole[w]) == 0 {
					require.Empty(t, got, "word %q", w)
					continue
				}
				require.Equal(t, whole[w], got, "word %q", w)
				require.Equal(t, whole[w], kw.Evoke(w), "word %q, cached", w)
			}
		})
	}
}
