package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pooler reaches the test's database in transaction mode: a session's
// setting does not follow the client from one transaction to the next
// (each may run on another server connection), what a transaction sets
// locally holds inside it.
func TestPooledDatabase(t *testing.T) {
	pooled, direct := PooledDatabase(t)
	require.NotEqual(t, direct, pooled)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pooled)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var db string
	require.NoError(t, conn.QueryRow(ctx, "SELECT current_database()").Scan(&db))
	d, err := pgx.ParseConfig(direct)
	require.NoError(t, err)
	assert.Equal(t, d.Database, db, "the same database")
	tx, err := conn.Begin(ctx)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, "SET LOCAL lock_timeout = 1234")
	require.NoError(t, err)
	var timeout string
	require.NoError(t, tx.QueryRow(ctx, "SHOW lock_timeout").Scan(&timeout))
	assert.Equal(t, "1234ms", timeout)
	require.NoError(t, tx.Commit(ctx))
}
