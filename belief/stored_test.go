package belief

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// The state's member reads back as written.
func TestBookMember(t *testing.T) {
	m := BookMember("ab12", 3)
	assert.Equal(t, `{"sha256":"ab12","count":3}`, string(m))
	sum, n := BookRef(m)
	assert.Equal(t, "ab12", sum)
	assert.Equal(t, int64(3), n)
	sum, n = BookRef(nil)
	assert.Equal(t, "", sum)
	assert.Zero(t, n)
}

// A stored context index is read from its kept files when they match the
// book the member names, else built from the book; a book that cannot be
// read leaves it out (nil), never an error.
func TestStoredContextIndex(t *testing.T) {
	b := NewBook()
	key := DeriveKey("", "", "", "dead_end", []string{"web_fetch"}, nil, "fetching large pages")
	_, _, err := b.Observe(key, "web_fetch truncates pages over 1 MB", ev("r1", FromReflection, Support, "agent-1"), t0)
	require.NoError(t, err)
	an := recall.NewAnalyzer(recall.Synonyms{})
	idx, sum := BuildContextIndex(b, an).AppendFiles("abc")
	files := map[string][]byte{"obs.json" + IndexExt: idx, "obs.json" + SummaryExt: sum}
	read := func(rel string) ([]byte, error) {
		if data, ok := files[rel]; ok {
			return data, nil
		}
		return nil, os.ErrNotExist
	}
	noBook := func([]byte) ([]byte, error) { return nil, errors.New("no book") }
	require.NotNil(t, StoredContextIndex(read, "obs.json", BookMember("abc", 1), noBook, an), "the kept files")
	assert.Nil(t, StoredContextIndex(read, "obs.json", BookMember("def", 1), noBook, an), "stale files, no book")
	fromBook := func([]byte) ([]byte, error) { return b.AppendJSON(nil), nil }
	ci := StoredContextIndex(read, "obs.json", BookMember("def", 1), fromBook, an)
	require.NotNil(t, ci, "stale files: built from the book")
	idx2, _ := ci.AppendFiles("abc")
	assert.Equal(t, idx, idx2)
}

// An entry states a reflection of its type, dated by the entry when that
// is before now; one that states nothing is left out.
func TestEntryReflection(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, entry, typ, text string
		ok                     bool
		at                     time.Time
	}{
		{"text, dated", `{"text":"fetch whole pages","date":"2026-11-20"}`, "post_task", "fetch whole pages", true, time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)},
		{"summary for methodology", `{"summary":"retry on 503"}`, "post_task", "retry on 503", true, now},
		{"no summary for a dead end", `{"summary":"retry on 503"}`, "dead_end", "", false, time.Time{}},
		{"a topic alone", `{"topic":"pricing","date":"2027-01-01"}`, "dead_end", "", true, now},
		{"blank", `{"text":"  "}`, "post_task", "", false, time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := pyjson.Parse([]byte(tc.entry))
			require.NoError(t, err)
			r, at, ok := EntryReflection(e, tc.typ, now)
			require.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.at, at)
			if ok {
				assert.Equal(t, tc.typ, r.Type)
				assert.Equal(t, tc.text, r.Text)
			}
		})
	}
}

// OwnHits keeps the agent's hits and those of no agent (a workspace
// without a fleet), in their order.
func TestOwnHits(t *testing.T) {
	v, err := pyjson.Parse([]byte(`{"hits":[{"id":"o-1"},{"id":"o-2","agent":"peer"},{"id":"o-3","agent":"me"}],"left_out":0}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"o-1", "o-3"}, OwnHits(v, "me"))
	assert.Nil(t, OwnHits(pyjson.Obj(), "me"))
}
