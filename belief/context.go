package belief

import (
	"bytes"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/quickjson"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// A ContextIndex is what a consult ranks observations with: the recall index
// of a book's believed observations, and each one's summary (id, key,
// claim, status, confidence, last support), without its evidence. It is
// derived from the book and may be kept beside it (AppendFiles,
// DecodeContextIndex: two files, each naming the book's hash), so that a
// consult reads a small binary index and a summary file instead of
// decoding the book.
type ContextIndex struct {
	ix  *recall.Index
	obs map[string]*Observation // summaries: no evidence
}

// contextIndexMagic begins the index file, before the book's hash.
const contextIndexMagic = "ucs-observations-index-1\n"

// BuildContextIndex indexes the believed observations of b with the analyzer.
func BuildContextIndex(b *Book, an *recall.Analyzer) *ContextIndex {
	c := &ContextIndex{ix: recall.NewIndex(an), obs: map[string]*Observation{}}
	for _, o := range b.Observations() {
		if !o.Status.Current() {
			continue
		}
		c.obs[o.ID] = &Observation{ID: o.ID, Key: o.Key, Claim: o.Claim, Status: o.Status,
			Confidence: o.Confidence, LastSupported: o.LastSupported}
		c.ix.Add(recall.Doc{ID: o.ID, Kind: string(o.Key.Kind), Fields: []recall.Field{
			{Text: o.Claim, Weight: recall.TextWeight},
			{Text: strings.ReplaceAll(o.Key.Slot, "-", " "), Weight: recall.KeywordsWeight},
			{Text: strings.NewReplacer(":", " ", "+", " ").Replace(o.Key.Subject), Weight: recall.CapabilitiesWeight},
		}})
	}
	return c
}

// DecodeContextIndex reads a context from its two files (AppendFiles) for the
// book of that hash, or returns nil when they are stale (another book,
// another analyzer's synonyms) or damaged: the caller then builds it from
// the book.
func DecodeContextIndex(idx, sum []byte, book string, an *recall.Analyzer) *ContextIndex {
	head := contextIndexMagic + book + "\n"
	if !bytes.HasPrefix(idx, []byte(head)) {
		return nil
	}
	ix, err := recall.DecodeIndex(idx[len(head):])
	if err != nil || !ix.Analyzer().Synonyms().Equal(an.Synonyms()) {
		return nil
	}
	if quickjson.Member(gjson.ParseBytes(sum), "book").Str != book {
		return nil
	}
	c := &ContextIndex{ix: ix, obs: map[string]*Observation{}}
	ok := true
	quickjson.Member(gjson.ParseBytes(sum), "observations").ForEach(func(_, v gjson.Result) bool {
		a := v.Array()
		if len(a) != 8 {
			ok = false
			return false
		}
		t, err := time.Parse(time.RFC3339Nano, a[7].Str)
		if err != nil {
			ok = false
			return false
		}
		o := &Observation{ID: a[0].Str, Key: Key{Kind: Kind(a[1].Str), Subject: a[2].Str, Slot: a[3].Str},
			Claim: a[4].Str, Status: Status(a[5].Str), LastSupported: t}
		o.Confidence.Value = a[6].Num
		c.obs[o.ID] = o
		return true
	})
	if !ok || len(c.obs) != ix.Len() {
		return nil
	}
	return c
}

// AppendFiles returns the context's two files for the book of that hash:
// the binary index and the summaries (by id), each naming the book.
func (c *ContextIndex) AppendFiles(book string) (idx, sum []byte) {
	idx = append([]byte(contextIndexMagic+book+"\n"), c.ix.AppendBinary(nil)...)
	ids := make([]string, 0, len(c.obs))
	for id := range c.obs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	list := make([]pyjson.Value, len(ids))
	for i, id := range ids {
		o := c.obs[id]
		list[i] = pyjson.ArrayValue([]pyjson.Value{pyjson.From(o.ID), pyjson.From(string(o.Key.Kind)), pyjson.From(o.Key.Subject),
			pyjson.From(o.Key.Slot), pyjson.From(o.Claim), pyjson.From(string(o.Status)), pyjson.From(o.Confidence.Value),
			pyjson.From(o.LastSupported.UTC().Format(time.RFC3339Nano))})
	}
	sum = pyjson.AppendCompact(nil, pyjson.Obj(pyjson.KV("book", book), pyjson.KV("observations", list)))
	return idx, sum
}
