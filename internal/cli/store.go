package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/handoff"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/store"
)

// Where a call's workspace is: a directory (--workspace, or --store with a
// path or file:// URL) or a workspace of a PostgreSQL store (--store
// postgres://..., named by --workspace-name, UCS_WORKSPACE_NAME, else
// UCS_AGENT_ID, else "default"), which runs every call on a local mirror
// as one database transaction (package pgstore).
//
// ucs links no database driver: it would add its packages' start-up to
// every call. A call on a PostgreSQL store becomes ucs-pg (cmd/ucs-pg: this
// command line with pgstore's store.Backend), found beside ucs or on PATH,
// before it reads anything (package handoff; cmd/ucs already does it while
// the process starts, where it can). The backend interface is package
// store's.

// isDatabase reports whether a store URL names a PostgreSQL database.
func isDatabase(url string) bool { return store.IsDatabase(url) }

// storeURL is the call's store: --store, else (without --workspace)
// UCS_STORE.
func (st *state) storeURL() string { return store.URL(st.store, st.workspace, st.env.Getenv) }

// becomeStoreBinary runs ucs-pg (UCS_STORE_BINARY, else beside ucs, else
// on PATH) in place of this process, with the same arguments and
// environment.
func becomeStoreBinary(args []string, getenv func(string) string) error {
	const hint = "install it: make install, or go install github.com/unified-cognitive-substrate/ucs/cmd/ucs-pg@latest"
	bin := getenv("UCS_STORE_BINARY")
	if bin == "" {
		var err error
		if bin, err = findBeside(handoff.Binary, "the PostgreSQL store's binary ucs-pg", hint); err != nil {
			return err
		}
	} else if _, err := os.Stat(bin); err != nil {
		return &fault.Error{Kind: fault.KindInternal, Code: fault.CodeNotInstalled,
			Msg: "UCS_STORE_BINARY names " + bin + ", which is not there: " + err.Error(), Hint: hint}
	}
	err := handoff.Exec(bin, args)
	return &fault.Error{Kind: fault.KindInternal, Code: fault.CodeInternal, Msg: "cannot run " + bin + ": " + err.Error(),
		Hint: "run it directly: " + bin}
}

// workspaceName names the call's workspace in a store.
func (st *state) workspaceName() string { return store.WorkspaceName(st.wsName, st.env.Getenv) }

// directoryOf is the directory a --store that is no database names.
func directoryOf(url string) string { return strings.TrimPrefix(url, "file://") }

// storeCall is the call's store.Call for op.
func (st *state) storeCall(op string) (store.Call, error) {
	b, err := st.bridgeFor() // the clock and lock timeout, checked
	if err != nil {
		return store.Call{}, err
	}
	sc := store.Named(st.wsName, st.env.Getenv, b.LockTimeout()).For(op)
	sc.Fleet = st.fleet
	return sc, nil
}

// backend is the call's store backend: this binary's, else ucs-pg, which
// the process becomes (the call does not return).
func (st *state) backend() (store.Backend, error) {
	if st.env.Store != nil {
		return st.env.Store, nil
	}
	return nil, becomeStoreBinary(st.args, st.env.Getenv)
}

// withBridge runs fn on the call's workspace: directly on a directory, or
// on a store's mirror as one transaction.
func (st *state) withBridge(op string, fn func(b *bridge.Bridge) error) error {
	if !isDatabase(st.storeURL()) {
		b, err := st.bridgeFor()
		if err != nil {
			return err
		}
		return fn(b)
	}
	be, err := st.backend()
	if err != nil {
		return err
	}
	sc, err := st.storeCall(op)
	if err != nil {
		return err
	}
	var opErr error
	err = be.Call(st.storeURL(), sc, func(m store.Mirror) error {
		opts, err := st.optionsAt(m.Dir)
		if err != nil {
			return err
		}
		// In a store, the agent is its workspace's name unless
		// UCS_AGENT_ID says otherwise.
		opErr = fn(store.OnMirror(opts, m, sc.Workspace, st.env.Getenv("UCS_AGENT_ID") != ""))
		return opErr
	})
	if opErr != nil {
		return opErr
	}
	return err
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
			if !isDatabase(to) {
				return usageErr("--to must be a postgres:// URL")
			}
			dir := st.workspaceDir()
			return st.storeDo(cmd, "push", func(be store.Backend, sc store.Call) (pyjson.Value, error) { return be.Push(to, sc, dir) })
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
			if !isDatabase(st.storeURL()) {
				return usageErr("store pull reads a PostgreSQL store: give --store postgres://... (or UCS_STORE)")
			}
			dir, _ := filepath.Abs(into)
			return st.storeDo(cmd, "pull", func(be store.Backend, sc store.Call) (pyjson.Value, error) {
				return be.Pull(st.storeURL(), sc, dir)
			})
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
			if !isDatabase(st.storeURL()) {
				return usageErr("store set changes a PostgreSQL store's workspace: give --store postgres://...")
			}
			if private && shared {
				return usageErr("--private and --shared exclude each other")
			}
			var p *bool
			if private || shared {
				p = &private
			}
			return st.storeDo(cmd, "set", func(be store.Backend, sc store.Call) (pyjson.Value, error) {
				return be.Set(st.storeURL(), sc, fleet, p)
			})
		},
	}
	set.Flags().StringVar(&fleet, "fleet", "", "the fleet whose workspaces see each other's knowledge")
	set.Flags().BoolVar(&private, "private", false, "keep this workspace's knowledge from the fleet")
	set.Flags().BoolVar(&shared, "shared", false, "share it again")
	cmd.AddCommand(push, pull, set)
	return cmd
}

// storeDo runs one of the store commands on the call's backend and prints
// its answer.
func (st *state) storeDo(cmd *cobra.Command, op string, fn func(store.Backend, store.Call) (pyjson.Value, error)) error {
	be, err := st.backend()
	if err != nil {
		return err
	}
	sc, err := st.storeCall(op)
	if err != nil {
		return err
	}
	out, err := fn(be, sc)
	if err != nil {
		return err
	}
	return st.print(cmd, out)
}

// workspaceDir is the call's directory workspace.
func (st *state) workspaceDir() string {
	ws := st.workspace
	if ws == "" && st.storeURL() != "" && !isDatabase(st.storeURL()) {
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
