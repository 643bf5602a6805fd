package pgstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The fleet view's call (view --fleet, show --fleet): every workspace of
// the store the caller may read, mirrored read-only.
//
// What the caller may read is the database's to say where it enforces
// privacy (row-level security: a role reads its own workspaces and its
// fleets' shared ones, a member of ucs_operator all of them); ucs asks
// the same of the rows it is given, so that a store where every agent
// connects as one role shows an agent no more: an operator (a superuser,
// a role that bypasses row-level security, or a member of ucs_operator)
// sees every workspace; any other role the workspace the call names and,
// unless that one is private, the shared workspaces of its fleet.

// operatorSQL says whether the connection's role reads every workspace.
// ucs_operator may not exist (a store made before roles, or by a role
// that may not create them): then no one is its member.
const operatorSQL = `SELECT r.rolsuper OR r.rolbypassrls OR EXISTS (SELECT 1 FROM pg_catalog.pg_roles o
	WHERE o.rolname = 'ucs_operator' AND pg_catalog.pg_has_role(current_user, o.oid, 'USAGE'))
	FROM pg_catalog.pg_roles r WHERE r.rolname = current_user`

// listingSQL lists every initialized workspace the role reads, with its
// owner where the schema records one (to_jsonb reads a column that may
// not be there without failing).
const listingSQL = `SELECT name, fleet, private, coalesce(to_jsonb(w) ->> 'owner', ''), version, seq, journal_bytes
	FROM ucs_workspaces w WHERE version > 0 ORDER BY name`

// A listed workspace: what the store says of it, and its row.
type listed struct {
	Peer
	r row
}

// fleetCall runs fn on every workspace the caller may read: one read-only
// transaction, at one snapshot of the store (REPEATABLE READ), lists them,
// brings a mirror of each (cache/fleet/NAME, apart from the workspaces'
// own mirrors and the peers' that consult uses) to its version, and hands
// them to fn as peers, their locks held in name order until fn returns.
// It commits nothing; fn's dir (the caller's own mirror's path) is not
// opened. A mirror of a workspace the caller may no longer read is
// removed: what a workspace keeps to itself leaves the fleet cache of a
// caller that may not read it on that caller's next fleet view.
func (s *Store) fleetCall(ctx context.Context, fn func(dir string, peers []Peer) error) error {
	mark, done := s.phases("store fleet")
	defer done()
	if err := s.migrated(ctx); err != nil {
		return err
	}
	tx, err := s.conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return storeErr(err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	ls, err := s.readable(ctx, tx)
	if err != nil {
		return err
	}
	mark(fmt.Sprintf("list %d", len(ls)))
	root := filepath.Join(s.cache, "fleet")
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = l.Name
	}
	forgetMirrors(root, names)
	var held []*mirror
	defer func() {
		for _, m := range held {
			m.unlock()
		}
	}()
	peers := make([]Peer, len(ls))
	for i, l := range ls {
		m := &mirror{name: l.Name, dir: filepath.Join(root, l.Name)}
		if err := m.lockMirror(s.opts.LockTimeout); err != nil {
			return err
		}
		held = append(held, m)
		if err := m.sync(ctx, tx, l.r); err != nil {
			return fmt.Errorf("store: mirror %s: %w", l.Name, err)
		}
		peers[i] = l.Peer
		peers[i].Dir = m.dir
	}
	mark("mirror")
	err = fn(s.mirrorOf(s.opts.Workspace).dir, peers)
	mark("operation")
	return err
}

// readable lists the initialized workspaces the caller may read (see
// above), by name; a row whose name ucs would not give a workspace (a row
// written behind its back) is never mirrored.
func (s *Store) readable(ctx context.Context, q querier) ([]listed, error) {
	var operator bool
	if err := q.QueryRow(ctx, operatorSQL).Scan(&operator); err != nil {
		return nil, storeErr(err)
	}
	rows, err := q.Query(ctx, listingSQL)
	if err != nil {
		return nil, storeErr(err)
	}
	var all []listed
	for rows.Next() {
		var l listed
		if err := rows.Scan(&l.Name, &l.Fleet, &l.Private, &l.Owner, &l.r.version, &l.r.seq, &l.r.journal); err != nil {
			rows.Close()
			return nil, storeErr(err)
		}
		l.r.exists, l.r.fleet, l.r.private = true, l.Fleet, l.Private
		if !validName(l.Name) {
			continue // no name ucs makes ("../x" would be a mirror outside the cache)
		}
		all = append(all, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, storeErr(err)
	}
	if operator {
		return all, nil
	}
	i := slices.IndexFunc(all, func(l listed) bool { return l.Name == s.opts.Workspace })
	if i < 0 {
		return nil, nil // no workspace of its own it may read: none of a fleet
	}
	own := all[i]
	return slices.DeleteFunc(all, func(l listed) bool {
		return l.Name != own.Name && (own.Private || l.Private || l.Fleet != own.Fleet)
	}), nil
}

// forgetMirrors removes the fleet mirrors under root of workspaces not in
// keep, each under its lock (one another process holds is left for its
// next view).
func forgetMirrors(root string, keep []string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || slices.Contains(keep, name) || strings.HasPrefix(name, ".") {
			continue
		}
		m := &mirror{name: name, dir: filepath.Join(root, name)}
		if m.lockMirror(0) != nil {
			continue
		}
		os.Remove(m.dir + ".version")
		os.RemoveAll(m.dir)
		m.unlock()
	}
}
