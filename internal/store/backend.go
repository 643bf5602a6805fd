package store

import (
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// A Backend keeps workspaces in a database. Its errors are *fault.Error
// values.
type Backend interface {
	// Call runs fn on the store's workspace as one transaction, on its
	// local copy.
	Call(url string, o Call, fn func(m Mirror) error) error
	// Push copies the directory workspace dir into the store; Pull the
	// store's into the new directory dir; Set changes its fleet or
	// privacy. Each returns its answer.
	Push(url string, o Call, dir string) (pyjson.Value, error)
	Pull(url string, o Call, dir string) (pyjson.Value, error)
	Set(url string, o Call, fleet string, private *bool) (pyjson.Value, error)
}

// A Call says which workspace a store call is on and what it may do.
type Call struct {
	Workspace   string        // its name in the store
	Cache       string        // the mirrors' directory (UCS_STORE_CACHE); "": the user's cache
	LockTimeout time.Duration // how long to wait for the workspace
	Create      bool          // init: make the workspace
	Fresh       bool          // verify, check: judge the store's rows, not a copy
	Peers       bool          // consult, coverage: mirror the fleet's other workspaces
	// Fleet (view --fleet, show --fleet): mirror every workspace of the
	// store the caller may read, read-only (no commit, no journal event),
	// and hand them to the operation as the Mirror's Peers.
	Fleet bool
}

// A Mirror is the local copy a store call runs on.
type Mirror struct {
	Dir   string
	Peers []Peer // for Call.Peers: the fleet's other workspaces
	// Fleet: Peers are every workspace the caller may read (Call.Fleet),
	// the caller's own among them, and Dir is not opened.
	Fleet bool
	// Volatile: the store detects a copy a power loss damaged (and
	// rebuilds it), so the copy's commits need not fsync.
	Volatile bool
	// Writes, when set, is where the workspace logs what its commits
	// write, for the store to copy (bridge.Options.Writes).
	Writes *workspace.WriteLog
}

// A Peer is another workspace of the fleet, mirrored in Dir. A fleet
// listing (Mirror.Fleet) also says its fleet, whether it is private, and
// its owner (the database role that made it; "" where the store records
// none).
type Peer struct {
	Name, Dir    string
	Fleet, Owner string
	Private      bool
}
