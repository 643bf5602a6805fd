package belief

import (
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/quickjson"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// A workspace keeps its book in a file of its own, which the state names
// by its SHA-256 in a member {"sha256", "count"}: a call that does not
// touch the observations neither reads nor writes the book. Beside the
// book it keeps the book's context index (AppendFiles) in two files, each
// naming the book's hash, so that a consult reads them instead of
// decoding the book. The
// storage is the workspace's; these read and write the bytes.

// BookRef reads the state's member: the SHA-256 of the book file it
// names, and how many observations that holds.
func BookRef(member []byte) (sum string, count int64) {
	doc := gjson.ParseBytes(member)
	return quickjson.Member(doc, "sha256").Str, quickjson.Member(doc, "count").Int()
}

// BookMember is the state's member naming the book file of that SHA-256,
// which holds count observations.
func BookMember(sum string, count int) []byte {
	return pyjson.AppendCompact(nil, pyjson.Obj(pyjson.KV("sha256", sum), pyjson.KV("count", count)))
}

// The context index of a book file is kept in two files named after it:
// the index (the book file's name and IndexExt) and the summaries
// (SummaryExt).
const (
	IndexExt   = ".idx"
	SummaryExt = ".sum"
)

// LoadContextIndex reads, through read, the context index kept beside the
// book file rel for the book of SHA-256 book, or returns nil when its
// files are missing, stale or damaged.
func LoadContextIndex(read func(string) ([]byte, error), rel, book string, an *recall.Analyzer) *ContextIndex {
	idx, err := read(rel + IndexExt)
	if err != nil {
		return nil
	}
	sum, err := read(rel + SummaryExt)
	if err != nil {
		return nil
	}
	return DecodeContextIndex(idx, sum, book, an)
}

// StoredContextIndex is the context index of the book a state's member
// names, in storage read through read (another workspace's: a fleet
// peer's): its kept files when they match the book, else built from the
// book, which readBook reads. It is nil when neither can be read: the
// caller leaves that book out.
func StoredContextIndex(read func(string) ([]byte, error), rel string, member []byte, readBook func(member []byte) ([]byte, error), an *recall.Analyzer) *ContextIndex {
	sum, _ := BookRef(member)
	if ci := LoadContextIndex(read, rel, sum, an); ci != nil {
		return ci
	}
	data, err := readBook(member)
	if err != nil {
		return nil
	}
	b, err := DecodeBook(data)
	if err != nil {
		return nil
	}
	return BuildContextIndex(b, an)
}
