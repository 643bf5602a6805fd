package pgstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// The schema's migrations, in order: each runs once, in its own
// transaction, and is recorded in ucs_schema with its version, so that a
// migration cut short is rolled back whole and run again by the next
// process. Processes that start at once take turns on an advisory lock
// held for the length of each migration's transaction (see migrate). A
// store whose schema is newer than this build knows is refused (like a
// workspace format from a newer ucs). A table added later that holds a
// workspace's rows needs what privacySQL gives the others: row-level
// security enabled and forced, its policies, and its grants to ucs_agent
// and ucs_operator.
var migrations = []struct {
	version int
	name    string
	sql     string
}{
	{1, "workspaces, journal, files", `
CREATE TABLE ucs_workspaces (
	name          text PRIMARY KEY,
	fleet         text NOT NULL DEFAULT 'default',
	private       boolean NOT NULL DEFAULT false,
	version       bigint NOT NULL DEFAULT 0,  -- one more per committed call
	seq           bigint NOT NULL DEFAULT 0,  -- the journal's last event
	journal_bytes bigint NOT NULL DEFAULT 0,  -- the journal file's length
	created_at    timestamptz NOT NULL DEFAULT now(),
	updated_at    timestamptz NOT NULL DEFAULT now()
);
-- The hash-chained journal, an event a row: (workspace, seq) is the
-- compare-and-swap of a commit.
CREATE TABLE ucs_journal (
	workspace text NOT NULL REFERENCES ucs_workspaces(name) ON DELETE CASCADE,
	seq       bigint NOT NULL,
	hash      text NOT NULL,
	line      bytea NOT NULL,
	version   bigint NOT NULL,
	PRIMARY KEY (workspace, seq)
);
CREATE INDEX ucs_journal_version ON ucs_journal (workspace, version);
-- Append-only files (JSON lines, Markdown), as the chunks each call appended.
CREATE TABLE ucs_chunks (
	workspace text NOT NULL REFERENCES ucs_workspaces(name) ON DELETE CASCADE,
	path      text NOT NULL,
	off       bigint NOT NULL,
	data      bytea NOT NULL,
	version   bigint NOT NULL,
	PRIMARY KEY (workspace, path, off)
);
CREATE INDEX ucs_chunks_version ON ucs_chunks (workspace, version);
-- Files written whole (the state, the manifest, the book of observations,
-- request records, backups); data NULL: the file was removed.
CREATE TABLE ucs_blobs (
	workspace text NOT NULL REFERENCES ucs_workspaces(name) ON DELETE CASCADE,
	path      text NOT NULL,
	data      bytea,
	version   bigint NOT NULL,
	PRIMARY KEY (workspace, path)
);
CREATE INDEX ucs_blobs_version ON ucs_blobs (workspace, version);
`},
	{2, "owners and row-level security", privacySQL},
	{3, "row-level security tested once a statement", schema3SQL},
}

// SchemaVersion is the newest schema this build writes.
var SchemaVersion = migrations[len(migrations)-1].version

// schemaLock is the advisory lock migrations take turns on.
const schemaLock = 0x75637320 // "ucs "

// migrate brings the schema up to SchemaVersion.
func migrate(ctx context.Context, conn *pgx.Conn) error { return migrateTo(ctx, conn, SchemaVersion) }

// migrateTo brings the schema up to version target (a test makes a store
// of an older schema with it). Each migration is a transaction that takes
// the advisory lock for its own length (pg_advisory_xact_lock) and then
// reads which migrations the store has: nothing outlives a transaction, so
// migrations run the same through a pooler in transaction mode
// (PgBouncer), where a session's lock could be taken on one server
// connection and released on another, or never.
func migrateTo(ctx context.Context, conn *pgx.Conn, target int) error {
	var have int
	// The common case, a current schema, costs one query.
	err := conn.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM ucs_schema`).Scan(&have)
	if err == nil && have >= target && have <= SchemaVersion {
		return nil
	}
	if err == nil && have > SchemaVersion {
		return newerSchema(have)
	}
	for _, m := range migrations {
		if m.version > target {
			continue
		}
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, schemaLock); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS ucs_schema (
				version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
				return err
			}
			if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM ucs_schema`).Scan(&have); err != nil {
				return err
			}
			if have > SchemaVersion {
				return newerSchema(have)
			}
			if m.version <= have {
				return nil // another process ran it
			}
			forced, err := unforce(ctx, tx)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			for _, t := range forced {
				if _, err := tx.Exec(ctx, `ALTER TABLE `+pgx.Identifier{t}.Sanitize()+` FORCE ROW LEVEL SECURITY`); err != nil {
					return err
				}
			}
			_, err = tx.Exec(ctx, `INSERT INTO ucs_schema (version, name) VALUES ($1, $2)`, m.version, m.name)
			return err
		})
		if err != nil {
			return fmt.Errorf("schema migration %d (%s): %w", m.version, m.name, err)
		}
	}
	return nil
}

func newerSchema(have int) error {
	return fmt.Errorf("the store's schema is version %d; this ucs knows up to %d: upgrade ucs", have, SchemaVersion)
}

// unforce lifts FORCE ROW LEVEL SECURITY from the schema's tables for the
// rest of the migration's transaction and returns them: a migration runs
// as the tables' owner (a superuser passes row-level security anyway), and
// one that reads or rewrites rows must see every workspace's, not only
// those its role owns.
func unforce(ctx context.Context, tx pgx.Tx) ([]string, error) {
	rows, err := tx.Query(ctx, `SELECT c.relname FROM pg_catalog.pg_class c
		WHERE c.relforcerowsecurity AND c.relkind = 'r' AND c.relname LIKE 'ucs\_%'
		AND c.relnamespace = (SELECT w.relnamespace FROM pg_catalog.pg_class w WHERE w.oid = to_regclass('ucs_workspaces'))
		ORDER BY c.relname`)
	if err != nil {
		return nil, err
	}
	forced, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	for _, t := range forced {
		if _, err := tx.Exec(ctx, `ALTER TABLE `+pgx.Identifier{t}.Sanitize()+` NO FORCE ROW LEVEL SECURITY`); err != nil {
			return nil, err
		}
	}
	return forced, nil
}
