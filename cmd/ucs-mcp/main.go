// Command ucs-mcp serves ucs's operations as MCP tools over stdio
// (internal/mcpserver). `ucs mcp` starts it; an MCP client may start it
// directly (`ucs mcp config` prints the configuration).
//
// It is a binary of its own so that the MCP SDK, and the start-up its
// packages cost, stays out of ucs, which starts once per call. Unlike ucs
// it keeps Go's default garbage collection: it lives for a whole session.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/cli"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/mcpserver"
	"github.com/unified-cognitive-substrate/ucs/internal/pgstore"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/store"
	buildinfo "github.com/unified-cognitive-substrate/ucs/internal/version"
)

func main() {
	fs := flag.NewFlagSet("ucs-mcp", flag.ContinueOnError)
	workspace := fs.String("workspace", "", "workspace directory (default $UCS_WORKSPACE, else ~/.ucs)")
	storeURL := fs.String("store", "", "a PostgreSQL store, postgres://... (default $UCS_STORE without --workspace)")
	name := fs.String("workspace-name", "", "the workspace in the store (default $UCS_WORKSPACE_NAME, else $UCS_AGENT_ID, else default)")
	operator := fs.Bool("operator", false, "serve the operator's tools too (policy, init, migrate, import, view), and weigh verdicts as a person's: for an operator's own client, never the agent's")
	version := fs.Bool("version", false, "print the version")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: ucs-mcp [--workspace DIR | --store postgres://... --workspace-name NAME] [--operator]\n\nServes ucs's operations as MCP tools over stdio (newline-delimited JSON-RPC): the agent's\n"+
			"by default; with --operator the operator's too (the policy, init, migrate, import, view).\n"+
			"Environment: UCS_WORKSPACE, UCS_STORE, UCS_WORKSPACE_NAME, UCS_STORE_CACHE, UCS_NOW, UCS_LOCK_TIMEOUT, UCS_AGENT_ID, UCS_SNAPSHOT_EVERY.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		if err == flag.ErrHelp {
			os.Exit(0)
		}
		os.Exit(int(fault.KindBadInput))
	}
	if *version {
		fmt.Printf("%s\n", pyjson.Indent(pyjson.Obj(pyjson.KV("ucs", buildinfo.Version()))))
		return
	}
	if fs.NArg() > 0 {
		fail(&fault.Error{Kind: fault.KindBadInput, Code: fault.CodeUsage, Msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0)),
			Hint: "run `ucs-mcp --help` for usage"})
	}
	opts, err := cli.BridgeOptions(*workspace, os.Getenv)
	if err != nil {
		fail(fault.AsError(err))
	}
	opts.Surface = bridge.SurfaceAgent
	if *operator {
		opts.Surface = bridge.SurfaceOperator
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	var run store.Runner
	if url := store.URL(*storeURL, *workspace, os.Getenv); store.IsDatabase(url) {
		run = pgstore.Runner(ctx, url, store.Named(*name, os.Getenv, opts.LockTimeout))
		if os.Getenv("GOGC") == "" {
			// Each call on a store reads and writes the whole state (about
			// 60 KB of JSON) and leaves it as garbage: collecting at 4x
			// the live heap instead of 2x cost a report 20-35% less CPU
			// (BenchmarkRunReport: 3.7 ms to 2.4 ms), its peak RSS the same.
			debug.SetGCPercent(400)
		}
	}
	if err := mcpserver.NewWith(opts, run).Run(ctx, mcpserver.Stdio(os.Stdin, os.Stdout)); err != nil && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "ucs-mcp: %s\n", fault.OneLine(err.Error()))
		os.Exit(1)
	}
}

// fail prints an error as the command line prints exec's (its JSON on one
// line of stderr: stdout is the protocol's) and exits with its kind.
func fail(e *fault.Error) { os.Exit(cli.FailOn(os.Stderr, e)) }
