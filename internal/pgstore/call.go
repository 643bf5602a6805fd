package pgstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// CallOptions say what a call may do to the store.
type CallOptions struct {
	// Create makes the workspace's row when there is none (init, push):
	// without it, a workspace the store does not hold is an empty mirror,
	// which the operation finds not initialized.
	Create bool
	// Fresh rebuilds the mirror from the store whatever it holds (verify
	// and check judge the store's rows, not a copy).
	Fresh bool
	// Peers mirrors the fleet's other workspaces too (Peers).
	Peers bool
	// Fleet lists and mirrors every workspace the caller may read instead,
	// read-only (fleetCall).
	Fleet bool
	// Writes, when set, is the write log fn's workspace keeps of the
	// mirror (its Root is set to the mirror): what the call changed is
	// read from it instead of scans of the mirror (written.go).
	Writes *workspace.WriteLog
}

// A Peer is another workspace of the fleet, mirrored: its name and
// directory; in a fleet listing (CallOptions.Fleet) also its fleet,
// privacy and owner ("" where the store records none).
type Peer struct {
	Name, Dir    string
	Fleet, Owner string
	Private      bool
}

// Call runs fn on the workspace's mirror as one transaction of the store
// (see the package documentation): fn's changes to the mirror are
// committed with it, or, when the commit fails, the mirror is rebuilt by
// the next call. fn's own error is returned after its changes are
// committed (an operation that fails changes nothing, but a recovery or a
// repair it made is kept).
func (s *Store) Call(ctx context.Context, opts CallOptions, fn func(dir string, peers []Peer) error) error {
	if opts.Fleet {
		return s.fleetCall(ctx, fn)
	}
	m := s.mirrorOf(s.opts.Workspace)
	mark, done := s.phases("store")
	defer done()
	if err := m.lockMirror(s.opts.LockTimeout); err != nil {
		return err
	}
	defer m.unlock()
	mark("lock")
	// One round trip: the schema's version, BEGIN, the lock timeout and
	// the workspace's row FOR UPDATE. The transaction is the connection's
	// until COMMIT (or the connection's end, which rolls it back).
	r, err := s.begin(ctx, opts.Create)
	if err != nil {
		return err
	}
	mark("begin")
	committed := false
	defer func() {
		if !committed { // a round trip saved after a COMMIT
			s.conn.Exec(context.WithoutCancel(ctx), "ROLLBACK")
		}
	}()
	tx := s.conn
	if !r.exists {
		// No row this role may change: another role's (refused), or
		// none it reads (the operation finds no workspace).
		if err := notOwned(ctx, tx, s.opts.Workspace, opts.Create, false); err != nil {
			return err
		}
	}
	if opts.Fresh {
		os.Remove(m.dir + ".version")
	}
	if err := m.sync(ctx, tx, r); err != nil {
		return fmt.Errorf("store: bring the mirror up to date: %w", err)
	}
	var peers []Peer
	if opts.Peers && r.exists && !r.private {
		var held []*mirror
		peers, held, err = s.syncPeers(ctx, tx, r.fleet)
		defer func() {
			for _, pm := range held {
				pm.unlock()
			}
		}()
		if err != nil {
			return err
		}
	}
	mark("sync")
	tr, err := track(m.dir, opts.Writes, opts)
	if err != nil {
		return err
	}
	mark("scan")
	callErr := fn(m.dir, peers)
	mark("operation")
	cs, journal, rewritten, journalSize, err := tr.changes(ctx, tx, s.opts.Workspace, r)
	if err != nil {
		return storeErr(err)
	}
	mark("changes")
	if len(cs) == 0 && len(journal) == 0 && !rewritten {
		return callErr
	}
	if !r.exists {
		// A call on a workspace the store does not hold changed the
		// mirror (an init without Create cannot happen; a stray file):
		// nothing is stored.
		os.Remove(m.dir + ".version")
		return callErr
	}
	keep := int64(-1)
	if rewritten || slices.ContainsFunc(cs, func(c change) bool { return c.shrunk }) {
		// Not an append (a repair's cut, init --force): a round trip
		// more, to store only what changed.
		if keep, journal, err = cutBack(ctx, tx, s.opts.Workspace, cs, journal, rewritten); err != nil {
			return storeErr(err)
		}
		mark("cut")
	}
	v := r.version + 1
	// One round trip more: the changes, the row and COMMIT, as one batch;
	// a statement that fails skips the rest, and the transaction ends
	// rolled back.
	b := &pgx.Batch{}
	seq := queueUpload(b, s.opts.Workspace, r.version, v, cs, journal, keep, textOK(s.conn.PgConn()) && !s.prep.binary())
	switch {
	case seq == 0 && keep >= 0:
		seq = keep // cut back, nothing after
	case seq == 0:
		seq = r.seq
	}
	b.Queue(`UPDATE ucs_workspaces SET version = $2, seq = $3, journal_bytes = $4, updated_at = now() WHERE name = $1`,
		s.opts.Workspace, v, seq, journalSize)
	b.Queue("COMMIT")
	s.prep.note(b)
	err = s.conn.SendBatch(ctx, b).Close()
	committed = err == nil
	mark("commit")
	if err != nil {
		// The mirror is ahead of the store: the next call rebuilds it.
		os.Remove(m.dir + ".version")
		return fmt.Errorf("store: commit: %w", err)
	}
	if err := m.setVersion(v); err != nil {
		os.Remove(m.dir + ".version")
	}
	s.prepare(ctx)
	return callErr
}

// begin starts the call's transaction (see Call), migrating the schema
// first when it is not current.
func (s *Store) begin(ctx context.Context, create bool) (row, error) {
	for attempt := 0; ; attempt++ {
		var have int
		r := row{exists: true}
		b := &pgx.Batch{}
		b.Queue(`SELECT coalesce(max(version), 0) FROM ucs_schema`).QueryRow(func(rw pgx.Row) error { return rw.Scan(&have) })
		b.Queue("BEGIN")
		b.Queue(fmt.Sprintf("SET LOCAL lock_timeout = %d", s.opts.LockTimeout.Milliseconds()))
		if s.lz4 {
			b.Queue(setLZ4)
		}
		if create {
			b.Queue(`INSERT INTO ucs_workspaces (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, s.opts.Workspace)
		}
		b.Queue(`SELECT version, seq, journal_bytes, fleet, private FROM ucs_workspaces WHERE name = $1 FOR UPDATE`, s.opts.Workspace).
			QueryRow(func(rw pgx.Row) error {
				err := rw.Scan(&r.version, &r.seq, &r.journal, &r.fleet, &r.private)
				if errors.Is(err, pgx.ErrNoRows) {
					r = row{}
					return nil
				}
				return err
			})
		s.prep.note(b)
		err := s.conn.SendBatch(ctx, b).Close()
		if err == nil && have == SchemaVersion {
			s.schemaOK = true
			return r, nil
		}
		s.conn.Exec(context.WithoutCancel(ctx), "ROLLBACK")
		if s.lz4 && noLZ4(err) {
			s.lz4 = false
			attempt--
			continue
		}
		if attempt > 0 || (err == nil && have > SchemaVersion) {
			if err == nil {
				err = fmt.Errorf("the store's schema is version %d; this ucs knows up to %d: upgrade ucs", have, SchemaVersion)
			}
			return row{}, storeErr(err)
		}
		var pe *pgconn.PgError
		if err != nil && !(errors.As(err, &pe) && pe.Code == "42P01") { // undefined_table: a new store
			return row{}, storeErr(err)
		}
		if err := s.migrated(ctx); err != nil {
			return row{}, err
		}
	}
}

// lockRow reads the workspace's row FOR UPDATE (creating it when asked).
func lockRow(ctx context.Context, tx pgx.Tx, name string, create bool) (row, error) {
	if create {
		if _, err := tx.Exec(ctx, `INSERT INTO ucs_workspaces (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, name); err != nil {
			return row{}, storeErr(err)
		}
	}
	r := row{exists: true}
	err := tx.QueryRow(ctx, `SELECT version, seq, journal_bytes, fleet, private FROM ucs_workspaces WHERE name = $1 FOR UPDATE`, name).
		Scan(&r.version, &r.seq, &r.journal, &r.fleet, &r.private)
	if errors.Is(err, pgx.ErrNoRows) {
		return row{}, nil
	}
	if err != nil {
		return row{}, storeErr(err)
	}
	return r, nil
}

// storeErr says a lock timeout as ErrBusy.
func storeErr(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "55P03" || pe.Code == "40P01") { // lock_not_available, deadlock_detected
		return ErrBusy
	}
	return fmt.Errorf("store: %w", err)
}

// syncPeers mirrors the fleet's other workspaces that are not private, in
// cache/peers/NAME (read-only copies, apart from the workspaces' own
// mirrors), and returns them with their locks held until the call ends:
// a process holds its own mirror's lock, then peers' in name order, so two
// calls never wait on each other in a circle. A mirrored peer that this
// role may no longer read shared (it went private, or left the fleets of
// the role's workspaces) is removed in the same round trip: what a
// workspace keeps to itself leaves every peer's cache on its next consult.
func (s *Store) syncPeers(ctx context.Context, tx querier, fleet string) ([]Peer, []*mirror, error) {
	root := filepath.Join(s.cache, "peers")
	mirrored := mirroredPeers(root)
	// The mirrored ones still shared come back too (peer false): another
	// workspace of this role, in another fleet, may use them.
	rows, err := tx.Query(ctx, `SELECT name, version, seq, journal_bytes, fleet = $1 AND name <> $2 FROM ucs_workspaces
		WHERE NOT private AND version > 0 AND ((fleet = $1 AND name <> $2) OR name = ANY($3)) ORDER BY name`,
		fleet, s.opts.Workspace, mirrored)
	if err != nil {
		return nil, nil, storeErr(err)
	}
	var rs []row
	var names []string
	shared := map[string]bool{}
	for rows.Next() {
		var r row
		var name string
		var peer bool
		if err := rows.Scan(&name, &r.version, &r.seq, &r.journal, &peer); err != nil {
			rows.Close()
			return nil, nil, err
		}
		if !validName(name) {
			continue // no name ucs makes ("../x" would be a mirror outside the cache)
		}
		shared[name] = true
		if !peer {
			continue
		}
		r.exists = true
		rs, names = append(rs, r), append(names, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	for _, name := range mirrored {
		if !shared[name] {
			(&mirror{name: name, dir: filepath.Join(root, name)}).drop()
		}
	}
	var peers []Peer
	var held []*mirror
	for i, name := range names {
		pm := &mirror{name: name, dir: filepath.Join(root, name)}
		if err := pm.lockMirror(s.opts.LockTimeout); err != nil {
			return nil, held, err
		}
		held = append(held, pm)
		if err := pm.sync(ctx, tx, rs[i]); err != nil {
			return nil, held, fmt.Errorf("store: mirror %s: %w", name, err)
		}
		peers = append(peers, Peer{Name: name, Dir: pm.dir})
	}
	return peers, held, nil
}

// Settings changes the workspace's fleet and privacy (empty fleet: kept),
// which only its owner may: another role's workspace is ErrNotOwner, one
// this role does not read ErrNoWorkspace.
func (s *Store) Settings(ctx context.Context, fleet string, private *bool) error {
	if fleet == "" && private == nil {
		return nil
	}
	var f *string
	if fleet != "" {
		f = &fleet
	}
	tag, err := s.conn.Exec(ctx, `UPDATE ucs_workspaces SET fleet = coalesce($2, fleet), private = coalesce($3, private) WHERE name = $1`,
		s.opts.Workspace, f, private)
	if err != nil {
		return storeErr(err)
	}
	if tag.RowsAffected() == 0 {
		// Row-level security hid the row from the update (or there is
		// none).
		return notOwned(ctx, s.conn, s.opts.Workspace, false, true)
	}
	return nil
}
