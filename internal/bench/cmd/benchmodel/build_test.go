package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// TestBuildCounts builds a small learned workspace of each model and checks
// what the benchmark reports about it: the reports and consults made, one
// journal event each, a learned member only for the models that learn,
// holding a weight for every distinct feature (no collision at this size),
// and the same bytes from the same plan.
func TestBuildCounts(t *testing.T) {
	for _, model := range []string{advice.ModelV4, advice.ModelV3, advice.ModelV2} {
		t.Run(model, func(t *testing.T) {
			p := plan{tools: 6, reports: 10, model: model, words: 50, consultEvery: 3}
			dir := t.TempDir()
			b, err := build(filepath.Join(dir, "ws"), p)
			require.NoError(t, err)
			assert.Equal(t, 10, b.reports)
			assert.Equal(t, 4, b.consults) // before reports 0, 3, 6 and 9
			assert.Equal(t, 1+4+10, b.events)
			journal, err := os.ReadFile(filepath.Join(dir, "ws", "ucs", "state", "journal.jsonl"))
			require.NoError(t, err)
			assert.Equal(t, b.events, countLines(journal))
			assert.NotEmpty(t, b.cursor)
			assert.Positive(t, b.stateBytes)
			if model == advice.ModelV2 {
				assert.Zero(t, b.learnBytes)
				assert.Zero(t, b.features)
				assert.Zero(t, b.weights)
				return
			}
			assert.Positive(t, b.learnBytes)
			// Ten reports of 8 distinct terms and the transition's own
			// weight: at most 90 features, and at least the 9 of one report.
			assert.GreaterOrEqual(t, b.features, 9)
			assert.LessOrEqual(t, b.features, 10*9+10)
			assert.Equal(t, b.features, b.weights)

			again, err := build(filepath.Join(dir, "again"), p)
			require.NoError(t, err)
			assert.Equal(t, b, again)
			s1, err := os.ReadFile(filepath.Join(dir, "ws", "ucs", "state", "torusfield_state.json"))
			require.NoError(t, err)
			s2, err := os.ReadFile(filepath.Join(dir, "again", "ucs", "state", "torusfield_state.json"))
			require.NoError(t, err)
			assert.Equal(t, s1, s2)
		})
	}
}

// TestVocabulary checks that every word is distinct and its own only term,
// so a context of 8 words is 8 terms.
func TestVocabulary(t *testing.T) {
	words := vocabulary(3000)
	require.Len(t, words, 3000)
	seen := map[string]bool{}
	for _, w := range words {
		assert.False(t, seen[w], w)
		seen[w] = true
	}
	assert.Equal(t, words, vocabulary(3000))
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
