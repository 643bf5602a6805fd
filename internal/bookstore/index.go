package bookstore

import (
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/quickjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// The book's context index is kept beside it; stale or missing files are
// rebuilt from the book, and written by the call's commit.
const (
	relIndex   = workspace.RelObservations + belief.IndexExt
	relSummary = workspace.RelObservations + belief.SummaryExt
)

// Index is the context index of the book member names: the one kept
// beside it when it matches and the caller has not decoded the book
// (decoded: the caller may have changed it), else built from the book,
// which book returns (built: the commit must write it, Stage).
func Index(read func(string) ([]byte, error), member []byte, decoded bool, book func() (*belief.Book, error), an *recall.Analyzer) (ci *belief.ContextIndex, built bool, err error) {
	if sum, _ := belief.BookRef(member); !decoded && sum != "" {
		if ci := belief.LoadContextIndex(read, workspace.RelObservations, sum, an); ci != nil {
			return ci, false, nil
		}
	}
	b, err := book()
	if err != nil {
		return nil, false, err
	}
	return belief.BuildContextIndex(b, an), true, nil
}

// A Context is a call's context index of the book, read or built once
// (Index): Built says the call built it, so its commit writes it (Stage).
type Context struct {
	Index *belief.ContextIndex
	Built bool
}

// Get returns the call's index, reading or building it on first use
// (Index, whose arguments these are; the analyzer is made only then).
func (c *Context) Get(read func(string) ([]byte, error), member []byte, decoded bool, book func() (*belief.Book, error), an func() *recall.Analyzer) (*belief.ContextIndex, error) {
	if c.Index == nil {
		ci, built, err := Index(read, member, decoded, book, an())
		if err != nil {
			return nil, err
		}
		c.Index, c.Built = ci, c.Built || built
	}
	return c.Index, nil
}

// stageIndex hands tx the derived files of ci, the index of the book of
// SHA-256 book (written unsynced by the commit: they are rebuilt whenever
// they do not match).
func stageIndex(tx *workspace.Tx, ci *belief.ContextIndex, book string) {
	idx, sum := ci.AppendFiles(book)
	tx.SetDerived(relIndex, idx)
	tx.SetDerived(relSummary, sum)
}

// PeerIndex is another workspace's (a fleet peer's) believed
// observations, indexed: its derived files when they match its book, else
// built from the book; nil when it keeps none or they cannot be read (a
// peer is left out, never an error of the caller's).
func PeerIndex(ws *workspace.Workspace, an *recall.Analyzer) *belief.ContextIndex {
	raw, err := ws.ReadFile(workspace.RelState)
	if err != nil {
		return nil
	}
	member := quickjson.Member(gjson.ParseBytes(raw), Member)
	if !member.Exists() {
		return nil
	}
	read := func(m []byte) ([]byte, error) { return Read(ws.ReadFile, m) }
	return belief.StoredContextIndex(ws.ReadFile, workspace.RelObservations, []byte(member.Raw), read, an)
}
