// Command ucs gives a persistent AI agent a learning memory of how it works.
// Run `ucs --help` for the commands; README.md for the whole story.
package main

import (
	"os"
	"runtime/debug"

	"github.com/unified-cognitive-substrate/ucs/internal/cli"
	// A call on a PostgreSQL store becomes ucs-pg here, before the
	// packages of ucs initialize (package atstart).
	_ "github.com/unified-cognitive-substrate/ucs/internal/handoff/atstart"
)

func main() {
	// A call lives for milliseconds and allocates a few MiB: collecting
	// garbage would only cost time. The limit turns collection back on for
	// a call that grows large (a big import); commands that run long
	// (verify, replay, check, log) collect as usual (see internal/cli).
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(48 << 20)
	os.Exit(cli.Run(os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}))
}
