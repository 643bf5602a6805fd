package bookstore

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// The index kept beside the book is read when it matches and the caller
// has not decoded the book; otherwise it is built from the book, and the
// caller is told to have the commit write it.
func TestIndexReadsTheKeptOneOrBuilds(t *testing.T) {
	an := recall.NewAnalyzer(recall.Synonyms{})
	b := belief.NewBook()
	data := b.AppendJSON(nil)
	h := sha256.Sum256(data)
	sum := hex.EncodeToString(h[:])
	member := belief.BookMember(sum, 0)
	idx, summaries := belief.BuildContextIndex(b, an).AppendFiles(sum)
	kept := files{relIndex: idx, relSummary: summaries}
	reads := 0
	book := func() (*belief.Book, error) { reads++; return b, nil }

	ci, built, err := Index(kept.read, member, false, book, an)
	require.NoError(t, err)
	assert.NotNil(t, ci)
	assert.False(t, built, "the kept index matches")
	assert.Zero(t, reads, "the book is not read")

	for name, tc := range map[string]struct {
		f       files
		decoded bool
	}{
		"decoded": {kept, true},
		"missing": {files{}, false},
		"stale":   {files{relIndex: idx, relSummary: []byte("{}")}, false},
	} {
		ci, built, err := Index(tc.f.read, member, tc.decoded, book, an)
		require.NoError(t, err, name)
		assert.NotNil(t, ci, name)
		assert.True(t, built, name)
	}
	assert.Equal(t, 3, reads)
}

// A call's Context reads or builds the index once, asks for the analyzer
// only then, and remembers that it built one for the commit.
func TestContextGetsTheIndexOnce(t *testing.T) {
	an := recall.NewAnalyzer(recall.Synonyms{})
	b := belief.NewBook()
	analyzers, reads := 0, 0
	analyzer := func() *recall.Analyzer { analyzers++; return an }
	book := func() (*belief.Book, error) { reads++; return b, nil }
	var c Context
	first, err := c.Get(files{}.read, nil, false, book, analyzer)
	require.NoError(t, err)
	again, err := c.Get(files{}.read, nil, false, book, analyzer)
	require.NoError(t, err)
	assert.Same(t, first, again)
	assert.True(t, c.Built, "none was kept: built, for the commit to write")
	assert.Equal(t, 1, analyzers)
	assert.Equal(t, 1, reads)
}
