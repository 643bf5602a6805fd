package mcpserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A server on a directory has no fleet: show and view with fleet are the
// command line's no_fleet, a tool error, and the workspace is unchanged
// (a store's server lists the fleet: internal/pgstore's
// TestFleetThroughMCP).
func TestFleetOnADirectory(t *testing.T) {
	ws := newDir(t)
	cs := connect(t, ws)
	_, isErr := call(t, cs, "init", `{}`)
	assert.False(t, isErr)
	before, _ := call(t, cs, "status", `{}`)
	for _, tool := range []string{"show", "view"} {
		out, isErr := call(t, cs, tool, `{"fleet": true}`)
		assert.True(t, isErr, out)
		assert.Equal(t, "no_fleet", code(t, out), out)
	}
	after, _ := call(t, cs, "status", `{}`)
	assert.Equal(t, before, after)
}
