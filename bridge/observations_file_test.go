package bridge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace/workspacetest"
)

// A call that changed the book but never committed wrote nothing: the
// book, its .prev and its derived files are handed to the transaction,
// which writes them only when it commits.
func TestBookWrittenOnlyByCommit(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	b := New(Options{Workspace: ws, Now: testNow})
	_, err := b.Do(Call{Op: "init"})
	require.NoError(t, err)
	_, err = b.Do(Call{Op: "reflect", Input: input(t, `{"type": "post_task", "text": "Fetch whole pages: snippets truncate tables.", "capabilities": ["web_fetch"], "keywords": ["fetch"]}`)})
	require.NoError(t, err)
	before := workspacetest.Fingerprint(t, ws)
	book := filepath.Join(ws, workspace.RelObservations)
	_, err = os.Stat(book + ".prev")
	require.True(t, os.IsNotExist(err), "one book so far, no .prev")

	tx, err := b.ws.Begin(true)
	require.NoError(t, err)
	s, err := b.openSession(tx)
	require.NoError(t, err)
	bk, err := s.book()
	require.NoError(t, err)
	obs := bk.Observations()
	require.Len(t, obs, 1)
	_, _, err = bk.Confirm(obs[0].ID, belief.NewEvidence(s, "test", "operator", belief.Support, "agent", ""), testNow)
	require.NoError(t, err)
	_, err = s.contextIndex()
	require.NoError(t, err)
	s.prepareBook()
	tx.Close()

	assert.Equal(t, before, workspacetest.Fingerprint(t, ws), "the book and its derived files are as committed")
	_, err = os.Stat(book + ".prev")
	assert.True(t, os.IsNotExist(err), "no .prev was made outside a commit")
}
