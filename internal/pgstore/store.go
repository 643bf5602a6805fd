// Package pgstore keeps ucs workspaces in a PostgreSQL database: its
// tables and their migrations, and the way one call runs on them as one
// database transaction.
//
// A call runs the ordinary directory workspace code (package workspace,
// through the bridge) on a mirror: a local copy of the workspace's files
// in a cache directory, kept current from the database. Call takes the
// workspace's row FOR UPDATE (the writers of a workspace, on any machine,
// take turns; UCS_LOCK_TIMEOUT bounds the wait), brings the mirror to the
// database's version, runs the operation on it, and writes what it changed
// in the same transaction as one new version: the journal's new events
// (ucs_journal, whose primary key (workspace, seq) refuses a second commit
// of the same sequence number), the chunks appended to append-only files
// (ucs_chunks), the files written whole (ucs_blobs), and the workspace's
// row. The database is the truth: a mirror ahead of it (a process killed
// between its local commit and the database's) or damaged is rebuilt from
// it; derived files (indexes, snapshots, locks) are never stored and are
// rebuilt locally.
//
// Push copies a directory workspace into the database and Pull one back,
// with the same bytes, so verify passes on both and the hash chain is the
// same. Workspaces are named (one per agent) and belong to a fleet; Peers
// lists the other workspaces of the fleet that are not private, each
// mirrored for searches of its knowledge. Each is owned by the database
// role that created it, and the database's row-level security decides
// which a role reads and writes (privacy.go): a call never relies on ucs
// to keep one agent's rows from another's.
//
// Backend serves the command line (cmd/ucs-pg) and Runner the MCP server
// (cmd/ucs-mcp --store) through the interfaces of package store: a
// storage backend knows neither front end.
package pgstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// Options configure a Store.
type Options struct {
	// Workspace names the workspace in the store (one per agent).
	Workspace string
	// Cache is the directory of the mirrors; empty: the user's cache
	// directory, ucs/pg/HASH, of the store's server, database and role
	// (a role's mirrors hold what it may read, and no other's).
	Cache string
	// LockTimeout bounds the wait for the workspace (10s when zero).
	LockTimeout time.Duration
	// Timings, when set, receives a line per call with the time each
	// phase took (UCS_TIMINGS=1).
	Timings io.Writer
}

// A Store is a connection to a store of workspaces.
type Store struct {
	conn     *pgx.Conn
	url      string // the store's URL without its password (Redact)
	opts     Options
	cache    string
	schemaOK bool // the schema is known to be current
	lz4      bool // the server compresses with LZ4 (compress.go)
	// prep is what conn has prepared (prepare.go).
	prep preparer
	// connected is how long the connection took (for Timings).
	connected time.Duration
	// writes is the write log of Run's calls, reused from call to call.
	writes *workspace.WriteLog
}

// ErrName: a workspace name the store does not take.
var ErrName = errors.New("a workspace name is 1 to 128 letters, digits, '.', '_' or '-', not starting with a punctuation mark")

// Open connects to the store at url and brings its schema up to date.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	if !validName(opts.Workspace) {
		return nil, ErrName
	}
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = 10 * time.Second
	}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, &URLError{Store: Redact(url), Err: err}
	}
	// A call makes a handful of statements once: no prepared statements
	// (each would cost a round trip more), so none to cache, nor their
	// descriptions; and unnamed statements are what a pooler in
	// transaction mode passes from one server connection to another.
	cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	cfg.StatementCacheCapacity, cfg.DescriptionCacheCapacity = 0, 0
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = opts.LockTimeout
	}
	t0 := time.Now()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, &UnavailableError{Store: Redact(url), Err: err}
	}
	// The schema is checked by each call's first round trip (Call), or
	// here for the rarer operations (migrated).
	s := &Store{conn: conn, url: Redact(url), opts: opts, cache: opts.Cache, connected: time.Since(t0), lz4: hasLZ4(conn.PgConn().ParameterStatus("server_version"))}
	if s.cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			dir = os.TempDir()
		}
		sum := sha256.Sum256([]byte(cfg.Host + "\x00" + fmt.Sprint(cfg.Port) + "\x00" + cfg.Database + "\x00" + cfg.User))
		s.cache = filepath.Join(dir, "ucs", "pg", hex.EncodeToString(sum[:8]))
	}
	return s, nil
}

// migrated brings the schema up to date, once per Store.
func (s *Store) migrated(ctx context.Context) error {
	if s.schemaOK {
		return nil
	}
	if err := migrate(ctx, s.conn); err != nil {
		return err
	}
	s.schemaOK = true
	return nil
}

// Close closes the connection.
func (s *Store) Close() { s.conn.Close(context.Background()) }
