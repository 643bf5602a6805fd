// Command ucs-pg is ucs for workspaces kept in PostgreSQL: the same
// command line (internal/cli) with the store backend of internal/pgstore.
// ucs becomes it (exec) for a call on --store postgres://... (or
// UCS_STORE), so that the database driver, and the start-up its packages
// cost, stays out of ucs, which starts once per call on a directory.
package main

import (
	"os"
	"runtime/debug"

	"github.com/unified-cognitive-substrate/ucs/internal/cli"
	"github.com/unified-cognitive-substrate/ucs/internal/pgstore"
)

func main() {
	// As ucs: a call lives for milliseconds; the limit turns collection
	// back on for one that grows large (a mirror rebuilt from the store).
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(48 << 20)
	os.Exit(cli.Run(os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv,
		Store: pgstore.Backend{}}))
}
