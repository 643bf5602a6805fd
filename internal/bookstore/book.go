package bookstore

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// Member is the state's member naming the book (belief.BookMember).
const Member = "observations"

// Read reads the book the state's member names: the file, or its .prev
// when a call was cut short after writing a new one.
func Read(read func(string) ([]byte, error), member []byte) ([]byte, error) {
	want, _ := belief.BookRef(member)
	return workspace.ReadSideFile(read, workspace.RelObservations, want)
}

// Load decodes the book the state's member names (Read): an empty book
// when member is nil (the state has none), corrupt (exit 5) when the file
// does not decode.
func Load(read func(string) ([]byte, error), member []byte) (*belief.Book, error) {
	if member == nil {
		return belief.NewBook(), nil
	}
	data, err := Read(read, member)
	if err != nil {
		return nil, err
	}
	b, err := belief.DecodeBook(data)
	if err != nil {
		return nil, fault.Corrupt(err, workspace.RelObservations)
	}
	return b, nil
}

// Check is check's judgment of the state's member: the book it names is
// there and decodes.
func Check(read func(string) ([]byte, error), member []byte) error {
	data, err := Read(read, member)
	if err == nil {
		_, err = belief.DecodeBook(data)
	}
	return err
}

// Stage hands tx the book's file when b is not the book member names (the
// commit writes it, keeping the previous one as .prev), and the book's
// context index when the file changed or the call built an index (built:
// ci, the call's index, is not the one kept); it returns the member
// naming b.
func Stage(tx *workspace.Tx, b *belief.Book, member []byte, ci *belief.ContextIndex, built bool, an *recall.Analyzer) []byte {
	data := b.AppendJSON(nil)
	h := sha256.Sum256(data)
	sum := hex.EncodeToString(h[:])
	old, _ := belief.BookRef(member)
	changed := old != sum
	if changed {
		tx.SetSideFile(workspace.RelObservations, data, old)
	}
	if changed || built {
		if ci == nil || changed { // the call changed the book after building its index
			ci = belief.BuildContextIndex(b, an)
		}
		stageIndex(tx, ci, sum)
	}
	return belief.BookMember(sum, len(b.Observations()))
}
