package workspace

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestBigLastEvent: after a big event (an import's holds the whole
// package), a transaction reads only the end of the journal's last event,
// which holds what it needs; the next commit reads the event whole for its
// hash.
func TestBigLastEvent(t *testing.T) {
	l := newTestWorkspace(t)
	tx, err := l.Begin(true)
	require.NoError(t, err)
	ev := event("import", 0)
	ev.Input = pyjson.Obj(pyjson.KV("blob", strings.Repeat("x", 2*bigEvent)))
	_, err = tx.Commit(ev, testState)
	require.NoError(t, err)
	tx.Close()

	end, err := readJournalEnd(l)
	require.NoError(t, err)
	whole, err := readJournalTail(l)
	require.NoError(t, err)
	assert.True(t, end.partial, "only the end of the big event is read")
	assert.False(t, whole.partial)
	assert.Equal(t, whole.seq, end.seq)
	assert.Equal(t, whole.end, end.end)
	assert.Equal(t, whole.event.StrOf("state_after"), end.event.StrOf("state_after"))

	commit(t, l, map[string][]pyjson.Value{RelActionLog: {pyjson.Obj(pyjson.KV("n", 1))}})
	checkOK(t, l)
}
