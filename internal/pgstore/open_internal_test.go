package pgstore

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
)

// A store's connection prepares no statement (a round trip more each, and
// a named statement a pooler in transaction mode could not follow), so it
// keeps no cache of statements or of their descriptions.
func TestOpenPreparesNothing(t *testing.T) {
	s, err := Open(context.Background(), pgtest.Database(t), Options{Workspace: "a", Cache: t.TempDir()})
	require.NoError(t, err)
	defer s.Close()
	cfg := s.conn.Config()
	assert.Equal(t, pgx.QueryExecModeExec, cfg.DefaultQueryExecMode)
	assert.Zero(t, cfg.StatementCacheCapacity)
	assert.Zero(t, cfg.DescriptionCacheCapacity)
}
