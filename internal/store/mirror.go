package store

import "github.com/unified-cognitive-substrate/ucs/bridge"

// OnMirror returns a Bridge on the mirror m of the store's workspace
// name, with the options opts of the call (their Workspace is replaced by
// m.Dir). A volatile mirror commits without fsync (the store makes the
// call durable). Unless keepAgent, the agent is the workspace's name:
// what its entries and a fleet's hits are tagged with. The fleet's
// mirrored workspaces are the Bridge's peers.
func OnMirror(opts bridge.Options, m Mirror, name string, keepAgent bool) *bridge.Bridge {
	opts.Workspace = m.Dir
	if m.Volatile {
		opts.NoSync = true
	}
	opts.Writes = m.Writes
	if !keepAgent {
		opts.AgentID = name
	}
	b := bridge.New(opts)
	for _, p := range m.Peers {
		b.AddPeer(p.Name, p.Dir)
	}
	return b
}
