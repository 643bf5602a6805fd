package mcpserver

import (
	"context"
	"os"
	"testing"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/cli"
)

// roleEnv makes the test binary a ucs or a ucs-mcp process, as
// testscript makes it ucs for the script tests: the subprocess tests run
// the code under test as the binaries would, without building them.
const roleEnv = "UCS_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "ucs":
		os.Exit(cli.Run(os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}))
	case "ucs-mcp": // cmd/ucs-mcp's main, on --workspace DIR [--operator]
		ws := ""
		if len(os.Args) >= 3 && os.Args[1] == "--workspace" {
			ws = os.Args[2]
		}
		opts, err := cli.BridgeOptions(ws, os.Getenv)
		if err != nil {
			os.Exit(2)
		}
		opts.Surface = bridge.SurfaceAgent
		if len(os.Args) == 4 && os.Args[3] == "--operator" {
			opts.Surface = bridge.SurfaceOperator
		}
		if err := New(opts).Run(context.Background(), Stdio(os.Stdin, os.Stdout)); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
