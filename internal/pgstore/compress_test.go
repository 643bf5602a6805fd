package pgstore_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The state a call stores again whole is compressed with LZ4, not pglz
// (about 3 ms of the server's CPU a call), through the pooler too: the
// setting is the transaction's.
func TestStateCompressedWithLZ4(t *testing.T) {
	direct := newEnv(t)
	pooled, _ := pooledEnv(t)
	for _, e := range []*env{direct, pooled} {
		e.must("a", "", "init")
		e.must("a", report("read", "success", 1), "report")
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, e.url)
		require.NoError(t, err)
		var method string
		require.NoError(t, conn.QueryRow(ctx, `SELECT pg_column_compression(data) FROM ucs_blobs
			WHERE workspace = 'a' AND path = 'ucs/state/torusfield_state.json'`).Scan(&method))
		conn.Close(ctx)
		assert.Equal(t, "lz4", method, e.url)
		e.must("a", "", "verify")
	}
}
