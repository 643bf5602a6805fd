package mcpserver

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExecuteActionProgram: execute_action decides as ucs exec does, by
// the program the command starts. A capability declaring proc:exec:ls ran
// touch, and one declaring nothing ran anything, before.
func TestExecuteActionProgram(t *testing.T) {
	ws := newDir(t)
	cs := connect(t, ws)
	manifest := `{"capabilities": [
  {"name": "lister", "connects_to": ["lister", "free"], "u": 0.5, "c": 0.2, "permissions": ["proc:exec:ls"]},
  {"name": "free", "connects_to": ["lister"], "u": 0.5, "c": 0.2}
], "semantic_map": {}}`
	_, isErr := call(t, cs, "init", `{"capability_manifest": `+manifest+`}`)
	require.False(t, isErr)
	_, isErr = call(t, cs, "policy_grant", `{"permission": "proc:exec:ls"}`)
	require.False(t, isErr)

	out, isErr := call(t, cs, "execute_action", `{"action": "lister", "command": ["ls", "`+ws+`"]}`)
	assert.False(t, isErr, out)
	for _, action := range []string{"lister", "free"} {
		marker := filepath.Join(t.TempDir(), "ran")
		out, isErr = call(t, cs, "execute_action", `{"action": "`+action+`", "command": ["touch", "`+marker+`"]}`)
		assert.True(t, isErr, out)
		assert.Equal(t, "permission_denied", code(t, out))
		assert.NoFileExists(t, marker)
		assert.Equal(t, "policy block", lastOp(t, ws))
	}
}
