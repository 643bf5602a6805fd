// Command ucs gives a persistent AI agent a learning memory of how it works.
// Run `ucs --help` for the commands; README.md for the whole story.
package main

import (
	"os"

	"github.com/unified-cognitive-substrate/ucs/internal/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}))
}
