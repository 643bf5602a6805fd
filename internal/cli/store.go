package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/pgstore"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Where a call's workspace is: a directory (--workspace, or --store with a
// path or file:// URL) or a workspace of a PostgreSQL store (--store
// postgres://..., named by --workspace-name, UCS_WORKSPACE_NAME, else
// UCS_AGENT_ID, else "default"), which runs every call on a local mirror
// as one database transaction (package pgstore).

// storeURL is the call's store: --store, else UCS_STORE.
func (st *state) storeURL() string {
	if st.store != "" {
		return st.store
	}
	return st.env.Getenv("UCS_STORE")
}

// workspaceName names the call's workspace in a store.
func (st *state) workspaceName() string {
	for _, v := range []string{st.wsName, st.env.Getenv("UCS_WORKSPACE_NAME"), st.env.Getenv("UCS_AGENT_ID")} {
		if v != "" {
			return v
		}
	}
	return "default"
}

// directoryOf is the directory a --store that is no database names.
func directoryOf(url string) string { return strings.TrimPrefix(url, "file://") }

// openStore connects to the call's PostgreSQL store.
func (st *state) openStore(ctx context.Context) (*pgstore.Store, error) {
	b, err := st.bridgeFor() // the clock and lock timeout, checked
	if err != nil {
		return nil, err
	}
	s, err := pgstore.Open(ctx, st.storeURL(), pgstore.Options{Workspace: st.workspaceName(), Cache: st.env.Getenv("UCS_STORE_CACHE"),
		LockTimeout: b.LockTimeout()})
	if err != nil {
		return nil, storeError(err)
	}
	return s, nil
}

// storeError says a store's failure as ucs's errors say theirs.
func storeError(err error) error {
	var be *bridge.Error
	switch {
	case errors.As(err, &be):
		return be
	case errors.Is(err, pgstore.ErrBusy):
		return &bridge.Error{Kind: bridge.KindBusy, Code: "busy", Msg: "the workspace is busy in the store",
			Hint: "another call holds it; retry (same request_id), or raise UCS_LOCK_TIMEOUT"}
	case errors.Is(err, pgstore.ErrName):
		return &bridge.Error{Kind: bridge.KindBadInput, Code: "invalid_workspace_name", Msg: err.Error(),
			Hint: "name the workspace with --workspace-name, UCS_WORKSPACE_NAME or UCS_AGENT_ID"}
	case errors.Is(err, pgstore.ErrExists):
		return &bridge.Error{Kind: bridge.KindBadInput, Code: "workspace_exists", Msg: err.Error(),
			Hint: "push under another --workspace-name, or pull the stored one"}
	}
	return &bridge.Error{Kind: bridge.KindInternal, Code: "store_failed", Msg: err.Error(),
		Hint: "check that the store's PostgreSQL server runs and that --store (UCS_STORE) names it"}
}

// peerOps are the operations that search the fleet's knowledge.
var peerOps = []string{"consult", "coverage"}

// withBridge runs fn on the call's workspace: directly on a directory, or
// on a store's mirror as one transaction.
func (st *state) withBridge(op string, fn func(b *bridge.Bridge) error) error {
	if !pgstore.IsURL(st.storeURL()) {
		b, err := st.bridgeFor()
		if err != nil {
			return err
		}
		return fn(b)
	}
	ctx := context.Background()
	s, err := st.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	opts := pgstore.CallOptions{Create: op == "init", Fresh: op == "verify" || op == "check",
		Peers: slices.Contains(peerOps, op)}
	var opErr error
	err = s.Call(ctx, opts, func(dir string, peers []pgstore.Peer) error {
		b, err := st.bridgeAt(dir)
		if err != nil {
			return err
		}
		// In a store, the agent is its workspace's name (unless
		// UCS_AGENT_ID says otherwise): what its entries and a fleet's
		// hits are tagged with.
		if st.env.Getenv("UCS_AGENT_ID") == "" {
			b.SetAgent(st.workspaceName())
		}
		for _, p := range peers {
			b.AddPeer(p.Name, p.Dir)
		}
		opErr = fn(b)
		return opErr
	})
	if opErr != nil {
		return opErr
	}
	if err != nil {
		return storeError(err)
	}
	return nil
}

// storeCommand is ucs store: moving a workspace between a directory and a
// PostgreSQL store.
func (st *state) storeCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "store",
		Short: "Move a workspace between a directory and a PostgreSQL store, or set its fleet",
		Long: `A workspace lives in a directory (the default) or in a PostgreSQL store
(--store postgres://..., or UCS_STORE), named by --workspace-name (UCS_WORKSPACE_NAME,
else UCS_AGENT_ID, else "default"). In a store each call is one database
transaction; the workspaces of a fleet see each other's knowledge in consult.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return fmt.Errorf("name a subcommand: push, pull or set")
		},
	}
	var to string
	push := &cobra.Command{
		Use:     "push --to URL",
		Short:   "Copy the directory workspace into a PostgreSQL store",
		Example: "ucs --workspace ~/.ucs store push --to postgres://ucs@/ucs?host=/run/postgresql --workspace-name agent-a",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !pgstore.IsURL(to) {
				return usageErr("--to must be a postgres:// URL")
			}
			dir := st.workspaceDir()
			st.store = to
			ctx := context.Background()
			s, err := st.openStore(ctx)
			if err != nil {
				return err
			}
			defer s.Close()
			n, err := s.Push(ctx, dir)
			if err != nil {
				return storeError(err)
			}
			return st.print(cmd, pyjson.Obj(pyjson.KV("status", "pushed"), pyjson.KV("workspace", s.Workspace()),
				pyjson.KV("files", n)))
		},
	}
	push.Flags().StringVar(&to, "to", "", "the store's URL (postgres://...)")
	push.MarkFlagRequired("to")
	var into string
	pull := &cobra.Command{
		Use:     "pull --to DIR",
		Short:   "Copy a workspace of the store into a new directory",
		Example: "ucs --store postgres://ucs@/ucs?host=/run/postgresql --workspace-name agent-a store pull --to ./agent-a",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !pgstore.IsURL(st.storeURL()) {
				return usageErr("store pull reads a PostgreSQL store: give --store postgres://... (or UCS_STORE)")
			}
			ctx := context.Background()
			s, err := st.openStore(ctx)
			if err != nil {
				return err
			}
			defer s.Close()
			dir, _ := filepath.Abs(into)
			v, err := s.Pull(ctx, dir)
			if err != nil {
				return storeError(err)
			}
			return st.print(cmd, pyjson.Obj(pyjson.KV("status", "pulled"), pyjson.KV("workspace", s.Workspace()),
				pyjson.KV("version", v), pyjson.KV("directory", dir)))
		},
	}
	pull.Flags().StringVar(&into, "to", "", "a new directory")
	pull.MarkFlagRequired("to")
	var fleet string
	var private, shared bool
	set := &cobra.Command{
		Use:     "set [--fleet NAME] [--private | --shared]",
		Short:   "Put the store's workspace in a fleet, or keep its knowledge to itself",
		Example: "ucs --store postgres://... --workspace-name agent-a store set --fleet team-1 --private",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !pgstore.IsURL(st.storeURL()) {
				return usageErr("store set changes a PostgreSQL store's workspace: give --store postgres://...")
			}
			if private && shared {
				return usageErr("--private and --shared exclude each other")
			}
			ctx := context.Background()
			s, err := st.openStore(ctx)
			if err != nil {
				return err
			}
			defer s.Close()
			var p *bool
			if private || shared {
				p = &private
			}
			if err := s.Settings(ctx, fleet, p); err != nil {
				return storeError(err)
			}
			return st.print(cmd, pyjson.Obj(pyjson.KV("status", "set"), pyjson.KV("workspace", s.Workspace())))
		},
	}
	set.Flags().StringVar(&fleet, "fleet", "", "the fleet whose workspaces see each other's knowledge")
	set.Flags().BoolVar(&private, "private", false, "keep this workspace's knowledge from the fleet")
	set.Flags().BoolVar(&shared, "shared", false, "share it again")
	cmd.AddCommand(push, pull, set)
	return cmd
}

// workspaceDir is the call's directory workspace.
func (st *state) workspaceDir() string {
	ws := st.workspace
	if ws == "" && st.storeURL() != "" && !pgstore.IsURL(st.storeURL()) {
		ws = directoryOf(st.storeURL())
	}
	if ws == "" {
		ws = st.env.Getenv("UCS_WORKSPACE")
	}
	if ws == "" {
		ws = bridge.DefaultWorkspace()
	}
	return ws
}

// print prints an answer as the operations' answers are printed.
func (st *state) print(cmd *cobra.Command, out pyjson.Value) error {
	if st.compact {
		_, err := cmd.OutOrStdout().Write(append(pyjson.AppendCompact(nil, out), '\n'))
		return err
	}
	return printJSON(cmd, out)
}
