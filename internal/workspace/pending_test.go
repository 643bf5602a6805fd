package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pending queue: a torn line does not swallow the next; what a drain
// applies is removed, what was queued while it ran stays, in order; a line
// the drain could not apply stays with those after it.
func TestPendingQueue(t *testing.T) {
	l := New(t.TempDir(), Options{})
	require.NoError(t, os.MkdirAll(filepath.Join(l.Root(), RelStateDir), DirPerm))
	require.NoError(t, l.QueuePending([]byte(`{"n":1}`)))
	f, err := os.OpenFile(l.Path(RelPending), os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	f.WriteString(`{"n":"torn`) // a writer killed mid-write
	f.Close()
	require.NoError(t, l.QueuePending([]byte(`{"n":2}`)))
	require.NoError(t, l.QueuePending([]byte(`{"n":3}`)))
	assert.Equal(t, 4, l.PendingCount())

	var seen []string
	n, err := l.DrainPending(func(line []byte) bool {
		seen = append(seen, string(line))
		if string(line) == `{"n":1}` {
			require.NoError(t, l.QueuePending([]byte(`{"n":4}`))) // queued while draining
		}
		return string(line) == `{"n":3}` // cannot apply now
	})
	require.NoError(t, err)
	assert.Equal(t, 3, n, "1, the torn line and 2")
	assert.Equal(t, []string{`{"n":1}`, `{"n":"torn`, `{"n":2}`, `{"n":3}`}, seen)
	data, err := os.ReadFile(l.Path(RelPending))
	require.NoError(t, err)
	assert.Equal(t, "{\"n\":3}\n{\"n\":4}\n", string(data), "the kept line first, then the one queued meanwhile")

	n, err = l.DrainPending(func([]byte) bool { return false })
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.False(t, l.HasPending())
}
