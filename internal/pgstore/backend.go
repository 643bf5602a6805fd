package pgstore

import (
	"context"
	"errors"
	"os"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/store"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// Backend is the command line's store.Backend for PostgreSQL (cmd/ucs-pg):
// each call connects, runs, and closes.
type Backend struct{}

var _ store.Backend = Backend{}

func open(url string, o store.Call) (*Store, error) {
	opts := Options{Workspace: o.Workspace, Cache: o.Cache, LockTimeout: o.LockTimeout}
	if os.Getenv("UCS_TIMINGS") == "1" {
		opts.Timings = os.Stderr
	}
	s, err := Open(context.Background(), url, opts)
	if err != nil {
		return nil, asError(err)
	}
	return s, nil
}

// Call runs fn on the workspace's mirror as one transaction (Store.Call).
func (Backend) Call(url string, o store.Call, fn func(m store.Mirror) error) error {
	s, err := open(url, o)
	if err != nil {
		return err
	}
	defer s.Close()
	w := &workspace.WriteLog{}
	err = s.Call(context.Background(), CallOptions{Create: o.Create, Fresh: o.Fresh, Peers: o.Peers, Fleet: o.Fleet, Writes: w},
		func(dir string, peers []Peer) error {
			m := mirrorOf(dir, peers, w)
			m.Fleet = o.Fleet
			return fn(m)
		})
	return s.asError(err)
}

// Push copies a directory workspace into the store (Store.Push).
func (Backend) Push(url string, o store.Call, dir string) (pyjson.Value, error) {
	s, err := open(url, o)
	if err != nil {
		return pyjson.Value{}, err
	}
	defer s.Close()
	n, err := s.Push(context.Background(), dir)
	if err != nil {
		return pyjson.Value{}, s.asError(err)
	}
	return pyjson.Obj(pyjson.KV("status", "pushed"), pyjson.KV("workspace", o.Workspace), pyjson.KV("files", n)), nil
}

// Pull copies the store's workspace into a new directory (Store.Pull).
func (Backend) Pull(url string, o store.Call, dir string) (pyjson.Value, error) {
	s, err := open(url, o)
	if err != nil {
		return pyjson.Value{}, err
	}
	defer s.Close()
	v, err := s.Pull(context.Background(), dir)
	if err != nil {
		return pyjson.Value{}, s.asError(err)
	}
	return pyjson.Obj(pyjson.KV("status", "pulled"), pyjson.KV("workspace", o.Workspace), pyjson.KV("version", v),
		pyjson.KV("directory", dir)), nil
}

// Set changes the workspace's fleet or privacy (Store.Settings).
func (Backend) Set(url string, o store.Call, fleet string, private *bool) (pyjson.Value, error) {
	s, err := open(url, o)
	if err != nil {
		return pyjson.Value{}, err
	}
	defer s.Close()
	if err := s.Settings(context.Background(), fleet, private); err != nil {
		return pyjson.Value{}, s.asError(err)
	}
	return pyjson.Obj(pyjson.KV("status", "set"), pyjson.KV("workspace", o.Workspace)), nil
}

// Run runs fn on a Bridge of the store's workspace as one transaction
// (Call) for the operation op (store.CallFor; store.FleetOp for a call
// that asks for the fleet): a long-lived server's
// way (cmd/ucs-mcp --store), with the options o of its calls (their
// workspace is the mirror; their agent, the workspace's name unless o
// names one). Errors are *fault.Error values.
func (s *Store) Run(ctx context.Context, op string, o bridge.Options, fn func(b *bridge.Bridge) error) error {
	sc := store.CallFor(op)
	var opErr error
	if s.writes == nil {
		s.writes = &workspace.WriteLog{} // kept for the server's next calls
	}
	err := s.Call(ctx, CallOptions{Create: sc.Create, Fresh: sc.Fresh, Peers: sc.Peers, Fleet: sc.Fleet, Writes: s.writes}, func(dir string, peers []Peer) error {
		keepAgent := o.AgentID != "" && o.AgentID != "default"
		m := mirrorOf(dir, peers, s.writes)
		m.Fleet = sc.Fleet
		opErr = fn(store.OnMirror(o, m, s.opts.Workspace, keepAgent))
		return opErr
	})
	if opErr != nil {
		return opErr
	}
	return s.asError(err)
}

// mirrorOf is a call's mirror in dir, with the fleet's peers and the write
// log of the call, as package store gives it to the front ends.
func mirrorOf(dir string, peers []Peer, w *workspace.WriteLog) store.Mirror {
	ps := make([]store.Peer, len(peers))
	for i, p := range peers {
		ps[i] = store.Peer{Name: p.Name, Dir: p.Dir, Fleet: p.Fleet, Owner: p.Owner, Private: p.Private}
	}
	return store.Mirror{Dir: dir, Peers: ps, Volatile: Volatile(), Writes: w}
}

// Runner is the MCP server's way to a store (cmd/ucs-mcp --store): each
// tool call one transaction (Store.Run) on the workspace where names (its
// Workspace, Cache and LockTimeout: store.Named), over one connection the
// server keeps and reopens after a failure. A long-lived server pays
// neither a process start nor a connection per call.
func Runner(ctx context.Context, url string, where store.Call) store.Runner {
	var st *Store
	return func(op string, o bridge.Options, fn func(b *bridge.Bridge) error) error {
		if st == nil {
			var err error
			st, err = Open(ctx, url, Options{Workspace: where.Workspace, Cache: where.Cache, LockTimeout: where.LockTimeout})
			if err != nil {
				return asError(err)
			}
		}
		err := st.Run(ctx, op, o, fn)
		var be *fault.Error
		if errors.As(err, &be) && (be.Code == fault.CodeStoreFailed || be.Code == fault.CodeStoreUnavailable) {
			st.Close()
			st = nil
		}
		return err
	}
}

// Volatile reports whether a mirror's commits may skip fsync: the store
// detects a mirror of another boot and rebuilds it (Linux's boot id).
func Volatile() bool { return bootID() != "" }

// asError is asError for a failure of a call on s: one that lost the
// connection (the server went away) is the store's unavailability.
func (s *Store) asError(err error) error {
	var be *fault.Error
	if err != nil && !errors.As(err, &be) && s.conn.IsClosed() {
		err = &UnavailableError{Store: s.url, Err: err}
	}
	return asError(err)
}

// asError says a store's failure as ucs's errors say theirs.
func asError(err error) error {
	var be *fault.Error
	var ue *UnavailableError
	var bad *URLError
	var pe *pgconn.PgError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &be):
		return be
	case errors.As(err, &ue):
		return &fault.Error{Kind: fault.KindStoreUnavailable, Code: fault.CodeStoreUnavailable, Msg: ue.Error(), Err: err,
			Hint:    "check that the store's PostgreSQL server runs and that --store (UCS_STORE) names its host, port and database, with a user and password it accepts; nothing was changed: retry (same request_id) once it answers",
			Details: []pyjson.Member{pyjson.KV("store", ue.Store)}}
	case errors.As(err, &bad):
		return &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeInvalidStoreURL, Msg: bad.Error(), Err: err,
			Hint:    "give --store (UCS_STORE) a URL such as postgres://USER@HOST:PORT/DATABASE or postgres://USER@/DATABASE?host=/run/postgresql",
			Details: []pyjson.Member{pyjson.KV("store", bad.Store)}}
	case errors.Is(err, ErrBusy):
		return &fault.Error{Kind: fault.KindBusy, Code: fault.CodeBusy, Msg: "the workspace is busy in the store",
			Hint: "another call holds it; retry (same request_id), or raise UCS_LOCK_TIMEOUT"}
	case errors.Is(err, ErrName):
		return &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeInvalidWorkspaceName, Msg: err.Error(),
			Hint: "name the workspace with --workspace-name, UCS_WORKSPACE_NAME or UCS_AGENT_ID"}
	case errors.Is(err, ErrNotOwner):
		return &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeStoreDenied, Msg: err.Error(), Err: err,
			Hint: "only the database role that created a workspace changes it: name your own with --workspace-name; a fleet's workspaces are read through consult and store pull"}
	case errors.Is(err, ErrNoWorkspace):
		return &fault.Error{Kind: fault.KindNotInitialized, Code: fault.CodeNotInitialized, Msg: err.Error(), Err: err,
			Hint: "check --workspace-name for a typo, or run `ucs init` on it"}
	case errors.As(err, &pe) && pe.Code == "42501": // insufficient_privilege, row-level security's refusal among them
		return &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeStoreDenied, Msg: "the store refused the call to this database role: " + pe.Message, Err: err,
			Hint: "an agent's role needs the grants of ucs_agent (GRANT ucs_agent TO the role) and changes only its own workspaces; a schema migration runs as the database's owner (docs/postgres.md)"}
	case errors.Is(err, ErrExists):
		return &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeWorkspaceExists, Msg: err.Error(),
			Hint: "push under another --workspace-name, or pull the stored one"}
	}
	return &fault.Error{Kind: fault.KindInternal, Code: fault.CodeStoreFailed, Msg: err.Error(),
		Hint: "check that the store's PostgreSQL server runs and that --store (UCS_STORE) names it"}
}
