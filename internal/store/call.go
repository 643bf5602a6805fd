package store

import (
	"slices"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
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
// Peers mirror the fleet's other workspaces. A call of op named as
// FleetOp names it, of an operation that takes fleet (view, show), lists
// every workspace the caller may read (Fleet) instead.
func (c Call) For(op string) Call {
	op, fleet := strings.CutSuffix(op, fleetSuffix)
	sp := bridge.Lookup(op)
	c.Create, c.Fresh, c.Peers = op == "init", op == "verify" || op == "check", sp != nil && sp.Peers
	if c.Fleet = fleet && sp != nil && slices.ContainsFunc(sp.Fields, func(f field.Field) bool { return f.Name == "fleet" }); c.Fleet {
		c.Create, c.Fresh, c.Peers = false, false, false
	}
	return c
}

// fleetSuffix marks an operation's name for a call that asks for the
// fleet (FleetOp).
const fleetSuffix = " --fleet"

// FleetOp is the name a Runner is given for a call of op that asks for
// the fleet (view --fleet, show --fleet): a front end that knows the
// call's arguments (the MCP server) says so, and For reads it back.
func FleetOp(op string) string { return op + fleetSuffix }

// CallFor is what a call of op may do to a store (Call.For), on no
// workspace yet.
func CallFor(op string) Call { return Call{}.For(op) }
