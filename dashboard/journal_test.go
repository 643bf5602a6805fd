package dashboard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// TestReadHistoryWithoutJournal: a workspace with no journal yet has no
// reports and an empty history, not an error, so view draws a new
// workspace.
func TestReadHistoryWithoutJournal(t *testing.T) {
	reports, h, err := ReadHistory(workspace.New(t.TempDir(), workspace.Options{}), "", nil)
	require.NoError(t, err)
	assert.Empty(t, reports)
	require.NotNil(t, h)
	assert.Empty(t, h.Contexts)
}
