package pgstore

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
)

// cutStore is a store whose workspace "a", at version 1, holds three
// events and an append-only file of two chunks, "0123456789" and
// "abcdefghij".
func cutStore(t *testing.T) (*pgx.Conn, [][]byte) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, pgtest.Database(t), Options{Workspace: "a", Cache: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	require.NoError(t, s.migrated(ctx))
	_, err = s.conn.Exec(ctx, `INSERT INTO ucs_workspaces (name, version, seq) VALUES ('a', 1, 3)`)
	require.NoError(t, err)
	var lines [][]byte
	for seq := 1; seq <= 3; seq++ {
		line := fmt.Appendf(nil, `{"hash":"h%d","seq":%d}`+"\n", seq, seq)
		lines = append(lines, line)
		_, err := s.conn.Exec(ctx, `INSERT INTO ucs_journal (workspace, seq, hash, line, version) VALUES ('a', $1, $2, $3, 1)`,
			seq, fmt.Sprintf("h%d", seq), line)
		require.NoError(t, err)
	}
	for off, data := range map[int]string{0: "0123456789", 10: "abcdefghij"} {
		_, err := s.conn.Exec(ctx, `INSERT INTO ucs_chunks (workspace, path, off, data, version) VALUES ('a', 'ucs/state/x.jsonl', $1, $2, 1)`,
			off, []byte(data))
		require.NoError(t, err)
	}
	return s.conn, lines
}

// A file that shrank in place is stored as a cut only when the bytes
// before its new end are the store's; anything else is stored whole.
func TestCutBackFiles(t *testing.T) {
	conn, _ := cutStore(t)
	for _, c := range []struct {
		data string
		cut  bool
	}{
		{"0123456789abc", true},  // inside the second chunk
		{"0123456789", true},     // where a chunk ends
		{"0123", true},           // inside the first chunk, shorter than the compared tail
		{"0123456789abX", false}, // rewritten: its last byte is not the store's
		{"X123456789", false},
	} {
		cs := []change{{path: "ucs/state/x.jsonl", appended: true, rewrite: true, shrunk: true, data: []byte(c.data)}}
		keep, _, err := cutBack(context.Background(), conn, "a", cs, nil, false)
		require.NoError(t, err)
		assert.Equal(t, int64(-1), keep, "the journal was not rewritten")
		assert.Equal(t, c.cut, cs[0].cut, c.data)
		if c.cut {
			assert.Equal(t, int64(len(c.data)), cs[0].off)
		} else {
			assert.Equal(t, c.data, string(cs[0].data), "stored whole")
		}
	}
}

// A rewritten journal keeps the events the store holds (seq, hash and
// length) up to the first that differs.
func TestCutBackJournal(t *testing.T) {
	conn, lines := cutStore(t)
	record := []byte(`{"hash":"r3","seq":3}` + "\n")
	longer := []byte(`{"hash":"h2","seq":2} ` + "\n")
	for _, c := range []struct {
		name    string
		journal [][]byte
		keep    int64
		rest    int
	}{
		{"the last event replaced", [][]byte{lines[0], lines[1], record}, 2, 1},
		{"cut, nothing after", [][]byte{lines[0], lines[1]}, 2, 0},
		{"the same", [][]byte{lines[0], lines[1], lines[2]}, 3, 0},
		{"an event of another length", [][]byte{lines[0], longer, record}, 1, 2},
		{"a new history", [][]byte{record}, 0, 1},
	} {
		var journal []byte
		for _, l := range c.journal {
			journal = append(journal, l...)
		}
		keep, rest, err := cutBack(context.Background(), conn, "a", nil, journal, true)
		require.NoError(t, err)
		assert.Equal(t, c.keep, keep, c.name)
		var want []byte
		for _, l := range c.journal[len(c.journal)-c.rest:] {
			want = append(want, l...)
		}
		assert.Equal(t, string(want), string(rest), c.name)
	}
}

// A commit that deletes (a cut) fails, deleting nothing, when the
// workspace is not at the version the call found.
func TestCutNeedsTheVersionFound(t *testing.T) {
	conn, _ := cutStore(t)
	ctx := context.Background()
	cs := []change{{path: "ucs/state/x.jsonl", cut: true, off: 4}}
	record := []byte(`{"hash":"r3","seq":3}` + "\n")
	for _, c := range []struct {
		seen int64
		ok   bool
	}{{5, false}, {1, true}} {
		tx, err := conn.Begin(ctx)
		require.NoError(t, err)
		_, err = upload(ctx, tx, "a", c.seen, 2, cs, record, 2)
		if !c.ok {
			require.Error(t, err, "found at version %d, the store is at 1", c.seen)
			require.NoError(t, tx.Rollback(ctx))
			continue
		}
		require.NoError(t, err)
		require.NoError(t, tx.Commit(ctx))
	}
	var n int64
	var data []byte
	require.NoError(t, conn.QueryRow(ctx, `SELECT count(*) FROM ucs_journal WHERE workspace = 'a'`).Scan(&n))
	assert.Equal(t, int64(3), n)
	require.NoError(t, conn.QueryRow(ctx, `SELECT line FROM ucs_journal WHERE workspace = 'a' AND seq = 3`).Scan(&data))
	assert.Equal(t, string(record), string(data), "the row of seq 3 replaced")
	require.NoError(t, conn.QueryRow(ctx, `SELECT string_agg(convert_from(data, 'UTF8'), '' ORDER BY off) FROM ucs_chunks
		WHERE workspace = 'a' AND path = 'ucs/state/x.jsonl'`).Scan(&data))
	assert.Equal(t, "0123", string(data), "cut to 4")
}
