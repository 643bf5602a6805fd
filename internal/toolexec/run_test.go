package toolexec

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestRun: what a run observes with its streams captured rather than
// passed through (the MCP server's way): exit code, byte counts, the tail
// kept (Keep bytes), a timeout, a command that does not exist.
func TestRun(t *testing.T) {
	o := Run(Command{Argv: []string{"sh", "-c", "printf 'a%.0s' $(seq 10000); echo err >&2; exit 3"}, Keep: 5000})
	assert.Equal(t, 3, o.ExitCode)
	assert.Equal(t, int64(10000), o.StdoutBytes)
	assert.Equal(t, strings.Repeat("a", 5000), o.StdoutTail)
	assert.Equal(t, "err\n", o.StderrTail)
	assert.Len(t, o.Result().StdoutTail, tailKeep, "the classifier reads 4 KiB")
	assert.Equal(t, 3, *o.Result().ExitCode)

	o = Run(Command{Argv: []string{"sleep", "5"}, Timeout: 50 * time.Millisecond})
	assert.True(t, o.TimedOut)
	assert.Equal(t, 143, o.ExitCode, "SIGTERM")
	assert.Less(t, o.Duration, 2*time.Second)

	o = Run(Command{Argv: []string{"/no/such/tool"}})
	assert.Equal(t, ExitNotFound, o.ExitCode)
	assert.NotEmpty(t, o.Err)
	assert.Nil(t, o.Result().ExitCode)
}
