package bridge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReportsTotal: status keeps the reference's report_counter (reports
// since the last φ-cycle) and counts every report beside it, an unknown
// capability's too, in a ucs workspace and in a reference one before and
// after its adoption.
func TestReportsTotal(t *testing.T) {
	status := func(t *testing.T, b *Bridge) (counter, total int64) {
		out, err := b.Do(Call{Op: "status"})
		require.NoError(t, err)
		c, _ := out.Get("report_counter")
		n, _ := out.Get("reports_total")
		counter, _ = c.Int()
		total, _ = n.Int()
		return counter, total
	}
	t.Run("ucs", func(t *testing.T) {
		b := newWorkspace(t)
		for i := range 33 {
			_, err := report(t, b, []string{"read", "web_fetch"}[i%2])
			require.NoError(t, err)
		}
		counter, total := status(t, b)
		assert.Equal(t, int64(3), counter)
		assert.Equal(t, int64(33), total)
		_, err := report(t, b, "no_such_capability")
		require.NoError(t, err)
		counter, total = status(t, b)
		assert.Equal(t, int64(3), counter)
		assert.Equal(t, int64(34), total)
	})
	t.Run("reference", func(t *testing.T) {
		ws := filepath.Join(t.TempDir(), "ws")
		require.NoError(t, os.CopyFS(ws, os.DirFS("../testdata/reference-v2/workspace")))
		b := New(Options{Workspace: ws, Now: testNow})
		_, total := status(t, b)
		assert.Equal(t, int64(40), total, "the reference's action log holds 40 reports")
		_, err := report(t, b, "read")
		require.NoError(t, err)
		_, total = status(t, b)
		assert.Equal(t, int64(41), total)
	})
}
