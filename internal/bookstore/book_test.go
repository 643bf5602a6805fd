package bookstore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// files is a workspace's files for Read, by relative name.
type files map[string][]byte

func (f files) read(rel string) ([]byte, error) {
	if data, ok := f[rel]; ok {
		return data, nil
	}
	return nil, fs.ErrNotExist
}

// The member names the book by its hash: Read finds it in the file, or in
// its .prev when a call was cut short after writing a newer one, and
// Check refuses a book that is not there or does not decode.
func TestReadAndCheckTheBookTheMemberNames(t *testing.T) {
	book := belief.NewBook().AppendJSON(nil)
	h := sha256.Sum256(book)
	member := belief.BookMember(hex.EncodeToString(h[:]), 0)

	for name, f := range map[string]files{
		"file": {workspace.RelObservations: book},
		"prev": {workspace.RelObservations: []byte(`{"newer": true}`), workspace.RelObservations + ".prev": book},
	} {
		got, err := Read(f.read, member)
		require.NoError(t, err, name)
		assert.Equal(t, book, got, name)
		assert.NoError(t, Check(f.read, member), name)
	}

	missing := files{workspace.RelObservations: []byte(`{"other": true}`)}
	_, err := Read(missing.read, member)
	assert.Error(t, err, "a book of another hash is not the one named")
	assert.Error(t, Check(missing.read, member))

	junk := []byte(`not a book`)
	hj := sha256.Sum256(junk)
	err = Check(files{workspace.RelObservations: junk}.read, belief.BookMember(hex.EncodeToString(hj[:]), 0))
	assert.Error(t, err, "the named file must decode")
	assert.False(t, errors.Is(err, fs.ErrNotExist))
}

// Load gives an empty book for a state without the member, the book the
// member names, and corrupt for a named file that does not decode.
func TestLoad(t *testing.T) {
	b, err := Load(files{}.read, nil)
	require.NoError(t, err)
	assert.Empty(t, b.Observations())

	book := belief.NewBook().AppendJSON(nil)
	h := sha256.Sum256(book)
	b, err = Load(files{workspace.RelObservations: book}.read, belief.BookMember(hex.EncodeToString(h[:]), 0))
	require.NoError(t, err)
	assert.Equal(t, book, b.AppendJSON(nil))

	junk := []byte(`not a book`)
	hj := sha256.Sum256(junk)
	_, err = Load(files{workspace.RelObservations: junk}.read, belief.BookMember(hex.EncodeToString(hj[:]), 0))
	var fe *fault.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, fault.KindCorrupt, fe.Kind)
}
