package pgstore

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
)

// Bytes stored through bytea come back as they were, whichever way they
// went: as text (UTF-8 without NUL: JSON with its backslashes, which
// bytea's own text input would read as escapes) or as hex (a NUL, bytes
// that are not UTF-8).
func TestByteaRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, pgtest.Database(t), Options{Workspace: "a", Cache: t.TempDir()})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.migrated(ctx))
	require.True(t, textOK(s.conn.PgConn()), "the test cluster is UTF-8")
	_, err = s.conn.Exec(ctx, `INSERT INTO ucs_workspaces (name) VALUES ('a')`)
	require.NoError(t, err)
	tests := []struct {
		name, data string
		asText     bool
	}{
		{"json", `{"a":"say \"hi\"\n","b":"\\x41","c":"\\101"}` + "\n", true},
		{"hex-looking", `\x4142`, true},
		{"utf-8", "naïve — 日本語 \U0001F600\n", true},
		{"nul", "a\x00b", false},
		{"not utf-8", "caf\xe9 \xff\xfe", false},
		{"empty", "", true},
	}
	for i, tt := range tests {
		expr, arg := bytea(true, 4, []byte(tt.data))
		_, isText := arg.(string)
		assert.Equal(t, tt.asText, isText, tt.name)
		b := &pgx.Batch{}
		b.Queue(`INSERT INTO ucs_chunks (workspace, path, off, data, version) VALUES ($1, $2, $3, `+expr+`, $5)`,
			"a", tt.name, int64(i), arg, int64(1))
		require.NoError(t, s.conn.SendBatch(ctx, b).Close(), tt.name)
		var got []byte
		require.NoError(t, s.conn.QueryRow(ctx, `SELECT data FROM ucs_chunks WHERE workspace = 'a' AND path = $1`, tt.name).Scan(&got))
		assert.Equal(t, tt.data, string(got), tt.name)
	}
	// Without a UTF-8 server, everything goes as hex.
	_, arg := bytea(false, 1, []byte("{}"))
	assert.IsType(t, []byte(nil), arg)
}
