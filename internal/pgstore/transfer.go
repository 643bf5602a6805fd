package pgstore

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/jackc/pgx/v5"

	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// ErrExists: push to a workspace the store already holds.
var ErrExists = errors.New("the store already holds a workspace of that name")

// Push copies the directory workspace at dir into the store, as its
// workspace, with the same bytes: every stored file (not the derived
// ones), the journal an event a row. The store must not hold the
// workspace yet. The copy is one transaction.
func (s *Store) Push(ctx context.Context, dir string) (files int, err error) {
	if !workspace.New(dir, workspace.Options{}).Exists(workspace.RelState) {
		return 0, fmt.Errorf("%s holds no workspace", dir)
	}
	if err := s.migrated(ctx); err != nil {
		return 0, err
	}
	tx, err := s.conn.Begin(ctx)
	if err != nil {
		return 0, storeErr(err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	r, err := lockRow(ctx, tx, s.opts.Workspace, true)
	if err != nil {
		return 0, err
	}
	if !r.exists {
		return 0, notOwned(ctx, tx, s.opts.Workspace, true, true)
	}
	if r.version > 0 {
		return 0, ErrExists
	}
	after, err := scan(dir)
	if err != nil {
		return 0, err
	}
	cs, journal, rewritten, err := changes(dir, nil, after)
	if err != nil {
		return 0, err
	}
	keep := int64(-1)
	if rewritten {
		keep = 0 // the whole journal: the store holds none of it
	}
	seq, err := upload(ctx, tx, s.opts.Workspace, 0, 1, cs, journal, keep)
	if err != nil {
		return 0, storeErr(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE ucs_workspaces SET version = 1, seq = $2, journal_bytes = $3, updated_at = now() WHERE name = $1`,
		s.opts.Workspace, seq, after[workspace.RelJournal].size); err != nil {
		return 0, storeErr(err)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, storeErr(err)
	}
	return len(after), nil
}

// Pull writes the store's workspace into dir, which must not exist or be
// empty, with the same bytes as pushed or committed.
func (s *Store) Pull(ctx context.Context, dir string) (version int64, err error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return 0, fmt.Errorf("%s is not empty", dir)
	}
	if err := s.migrated(ctx); err != nil {
		return 0, err
	}
	// A consistent copy: the row is read under the same snapshot as the
	// files. No row lock: a pull is a read, which a role may make of a
	// workspace it does not own (its fleet's, or any, for an operator).
	tx, err := s.conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return 0, storeErr(err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	err = tx.QueryRow(ctx, `SELECT version FROM ucs_workspaces WHERE name = $1`, s.opts.Workspace).Scan(&version)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return 0, storeErr(err)
	}
	if version == 0 {
		return 0, fmt.Errorf("%w: %q", ErrNoWorkspace, s.opts.Workspace)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	m := &mirror{name: s.opts.Workspace, dir: dir}
	if err := m.pull(ctx, tx, 0); err != nil {
		return 0, err
	}
	return version, tx.Commit(ctx)
}
