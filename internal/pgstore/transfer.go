package pgstore

import (
	"context"
	"errors"
	"fmt"
	"os"

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
	tx, err := s.conn.Begin(ctx)
	if err != nil {
		return 0, storeErr(err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	// A consistent copy: the row is read under the same snapshot as the
	// files (REPEATABLE READ would do; the row lock also waits out a
	// writer in progress).
	r, err := lockRow(ctx, tx, s.opts.Workspace, false)
	if err != nil {
		return 0, err
	}
	if !r.exists || r.version == 0 {
		return 0, fmt.Errorf("the store holds no workspace %q", s.opts.Workspace)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	m := &mirror{name: s.opts.Workspace, dir: dir}
	if err := m.pull(ctx, tx, 0); err != nil {
		return 0, err
	}
	return r.version, tx.Commit(ctx)
}
