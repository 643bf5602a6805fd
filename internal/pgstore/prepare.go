package pgstore

import (
	"context"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// A call's statements go unprepared (pgx.QueryExecModeExec): a process
// per call makes each once, and a prepared statement costs a round trip
// more. The server then parses, analyzes, rewrites (row-level security's
// policies among it) and plans every statement of every call: about a
// third of its CPU for a report. A long-lived server (ucs-mcp --store)
// makes the same few statements call after call on one connection, so
// the statements its calls made twice are prepared on that connection
// once (pgx uses a prepared statement of the same text in any mode): the
// server plans them once, then reuses a generic plan.
//
// A prepared statement is the server connection's, and a pooler in
// transaction mode (PgBouncer) runs each transaction on whichever server
// connection is free, where the statement may not exist. A pooler cannot
// give its clients the server's process id (its connections to the server
// change), so statements are prepared only where the server's
// pg_backend_pid() is the process id the connection was given at its
// start: the connection is the server's own.

// prepareAfter is how many calls must have made a statement before it is
// prepared; prepareMax bounds the statements prepared on a connection, and
// the ones counted.
const (
	prepareAfter = 2
	prepareMax   = 32
)

// A preparer counts the statements of a connection's calls and prepares
// the repeated ones.
type preparer struct {
	seen     map[string]int
	prepared map[string]bool
	checked  bool // the connection was found to be the server's own
	off      bool // never: a pooler between, or a failure
}

// note counts the statements of a call's batch.
func (p *preparer) note(b *pgx.Batch) {
	if p.off {
		return
	}
	if p.seen == nil {
		p.seen, p.prepared = map[string]int{}, map[string]bool{}
	}
	for _, q := range b.QueuedQueries {
		if preparable(q.SQL) && (len(p.seen) < prepareMax || p.seen[q.SQL] > 0) {
			p.seen[q.SQL]++
		}
	}
}

// binary reports whether the connection's calls prepare their statements:
// their bytes then go as bytea parameters, which a prepared statement's
// description lets pgx send as they are (binary), rather than as text that
// the server checks as UTF-8 twice (its input, then convert_to) and
// copies; unprepared, bytea would go as hex (see bytea), for the two calls
// before the statements are prepared.
func (p *preparer) binary() bool { return p.checked && !p.off }

// preparable reports whether a statement gains by being prepared: one
// the planner plans (a transaction's control and SET LOCAL do not go
// through it, and SET LOCAL's value is in its text).
func preparable(sql string) bool {
	for _, w := range []string{"BEGIN", "COMMIT", "ROLLBACK", "SET "} {
		if strings.HasPrefix(sql, w) {
			return false
		}
	}
	return true
}

// prepare prepares, after a call committed, the statements that calls
// made prepareAfter times. A failure only stops preparing: the calls go on
// unprepared.
func (s *Store) prepare(ctx context.Context) {
	p := &s.prep
	if p.off {
		return
	}
	var todo []string
	for sql, n := range p.seen {
		if n >= prepareAfter && !p.prepared[sql] && len(p.prepared)+len(todo) < prepareMax {
			todo = append(todo, sql)
		}
	}
	if len(todo) == 0 {
		return
	}
	if !p.checked {
		var pid uint32
		if err := s.conn.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil || pid != s.conn.PgConn().PID() {
			p.off = true
			return
		}
		p.checked = true
	}
	slices.Sort(todo)
	for _, sql := range todo {
		if _, err := s.conn.Prepare(ctx, sql, sql); err != nil {
			p.off = true
			return
		}
		p.prepared[sql] = true
	}
}
