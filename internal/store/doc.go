// Package store is the seam between ucs's front ends and the stores that
// keep workspaces in a database: the command line (internal/cli) and the
// MCP server (internal/mcpserver) on one side, a backend such as
// internal/pgstore on the other. Neither side imports the other; both
// import this package.
//
// It owns the backend interface (Backend, with what a call may do, Call,
// and the local copy it runs on, Mirror), what each operation asks of a
// store (CallFor, from the operation's bridge.Spec), how a Bridge is
// opened on a mirror (OnMirror), the MCP server's way to run an operation
// (Runner), and how a call names its store and workspace (URL,
// IsDatabase, WorkspaceName, Named), so that every binary reads them from
// its flags and environment the same way.
//
// It holds no driver and no state: importing it costs the command line
// nothing at start-up.
package store
