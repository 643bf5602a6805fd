package store

import "github.com/unified-cognitive-substrate/ucs/bridge"

// OnMirror returns a Bridge on the mirror m of the store's workspace
// name, with the options opts of the call (their Workspace is replaced by
// m.Dir). A volatile mirror commits without fsync (the store makes the
// call durable). Unless keepAgent, the agent is the workspace's name:
// what its entries and a fleet's hits are tagged with. The fleet's
// mirrored workspaces are the Bridge's peers; a fleet listing
// (Mirror.Fleet) is handed over whole (Bridge.SetFleet). A server's Warm
// (opts.Warm) carries over: a call whose mirror holds the state file the
// server's previous call wrote does not decode it, and one whose mirror
// the store brought up to date from other rows does.
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
	if m.Fleet {
		ms := make([]bridge.FleetMember, len(m.Peers))
		for i, p := range m.Peers {
			ms[i] = bridge.FleetMember{Name: p.Name, Dir: p.Dir, Fleet: p.Fleet, Owner: p.Owner, Private: p.Private}
		}
		b.SetFleet(ms)
		return b
	}
	for _, p := range m.Peers {
		b.AddPeer(p.Name, p.Dir)
	}
	return b
}
