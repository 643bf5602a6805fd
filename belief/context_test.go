package belief

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/recall"
)

// The context index's files read back as the index they were written
// from, and are refused (nil: rebuild from the book) when they name
// another book or another analyzer's synonyms, or do not agree.
func TestContextIndexFiles(t *testing.T) {
	b := NewBook()
	key := DeriveKey("", "", "", "dead_end", []string{"web_fetch"}, nil, "fetching large pages")
	_, _, err := b.Observe(key, "web_fetch truncates pages over 1 MB", ev("r1", FromReflection, Support, "agent-1"), t0)
	require.NoError(t, err)
	an := recall.NewAnalyzer(recall.Synonyms{})
	c := BuildContextIndex(b, an)
	idx, sum := c.AppendFiles("abc")

	back := DecodeContextIndex(idx, sum, "abc", an)
	require.NotNil(t, back)
	idx2, sum2 := back.AppendFiles("abc")
	assert.Equal(t, idx, idx2)
	assert.Equal(t, sum, sum2)

	assert.Nil(t, DecodeContextIndex(idx, sum, "def", an), "another book")
	assert.Nil(t, DecodeContextIndex(idx[:len(idx)-1], sum, "abc", an), "a cut index")
	assert.Nil(t, DecodeContextIndex(idx, []byte(`{"book":"abc","observations":[]}`), "abc", an), "a summary that misses one")
	syn, err := recall.NewSynonyms(map[string][]string{"fetch": {"download"}})
	require.NoError(t, err)
	assert.Nil(t, DecodeContextIndex(idx, sum, "abc", recall.NewAnalyzer(syn)), "another analyzer")

	hits := RankContext("web_fetch truncates large pages", nil, t0, []ContextSource{{Index: back, Weight: 1}})
	h, _ := hits.Get("hits")
	assert.Len(t, h.Items(), 1)
}
