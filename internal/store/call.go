package store

import "github.com/unified-cognitive-substrate/ucs/bridge"

// CallFor is what a call of op (as the registry names it, or push, pull
// or set) may do to a store: init creates the workspace, verify and check
// judge the store's rows (a mirror rebuilt from them), and the operations
// whose Spec says Peers mirror the fleet's other workspaces. Workspace,
// Cache and LockTimeout are the caller's to fill in.
func CallFor(op string) Call {
	sp := bridge.Lookup(op)
	return Call{Create: op == "init", Fresh: op == "verify" || op == "check", Peers: sp != nil && sp.Peers}
}
