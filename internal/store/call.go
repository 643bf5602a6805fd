package store

import (
	"time"

	"github.com/unified-cognitive-substrate/ucs/bridge"
)

// Named is a call on a store's workspace as the environment names it:
// WorkspaceName of the one flagged, the mirrors' directory
// (UCS_STORE_CACHE), and lockTimeout. The command line and the MCP server
// on a store (cmd/ucs-mcp) share it; For adds what the call may do.
func Named(flagged string, getenv func(string) string, lockTimeout time.Duration) Call {
	return Call{Workspace: WorkspaceName(flagged, getenv), Cache: getenv("UCS_STORE_CACHE"), LockTimeout: lockTimeout}
}

// For is c for a call of op (as the registry names it, or push, pull or
// set): init creates the workspace, verify and check judge the store's
// rows (a mirror rebuilt from them), and the operations whose Spec says
// Peers mirror the fleet's other workspaces.
func (c Call) For(op string) Call {
	sp := bridge.Lookup(op)
	c.Create, c.Fresh, c.Peers = op == "init", op == "verify" || op == "check", sp != nil && sp.Peers
	return c
}

// CallFor is what a call of op may do to a store (Call.For), on no
// workspace yet.
func CallFor(op string) Call { return Call{}.For(op) }
