package bookstore

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// Member is the state's member naming the book (belief.BookMember).
const Member = "observations"

// Read reads the book the state's member names: the file, or its .prev
// when a call was cut short after writing a new one.
func Read(read func(string) ([]byte, error), member []byte) ([]byte, error) {
	want, _ := belief.BookRef(member)
	return workspace.ReadSideFile(read, workspace.RelObservations, want)
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
// commit writes it, keeping the previous one as .prev), and returns the
// member naming b, b's SHA-256 and whether the file changed.
func Stage(tx *workspace.Tx, b *belief.Book, member []byte) (next []byte, sum string, changed bool) {
	data := b.AppendJSON(nil)
	h := sha256.Sum256(data)
	sum = hex.EncodeToString(h[:])
	old, _ := belief.BookRef(member)
	if changed = old != sum; changed {
		tx.SetSideFile(workspace.RelObservations, data, old)
	}
	return belief.BookMember(sum, len(b.Observations())), sum, changed
}
