package store

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/bridge"
)

// TestCallFor pins what each operation asks of a store: the fleet is
// mirrored for exactly the operations the command line listed by name
// before the list became Spec.Peers (consult, coverage, init).
func TestCallFor(t *testing.T) {
	tests := []struct {
		op   string
		want Call
	}{
		{"init", Call{Create: true, Peers: true}},
		{"consult", Call{Peers: true}},
		{"coverage", Call{Peers: true}},
		{"verify", Call{Fresh: true}},
		{"check", Call{Fresh: true}},
		{"report", Call{}},
		{"resume", Call{}},
		{"goal add", Call{}},
		{"push", Call{}}, // the store commands are no operations
		{"pull", Call{}},
		{"set", Call{}},
		{"", Call{}},
		{"show --fleet", Call{Fleet: true}}, // FleetOp: every workspace the caller may read
		{"view --fleet", Call{Fleet: true}},
		{"consult --fleet", Call{Peers: true}}, // an operation that takes no fleet: the operation's own
		{"init --fleet", Call{Create: true, Peers: true}},
		{"nothing --fleet", Call{}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, CallFor(tt.op), "op %q", tt.op)
	}
	var peers []string
	for _, sp := range bridge.Specs() {
		if sp.Peers {
			peers = append(peers, sp.Name)
		}
	}
	assert.ElementsMatch(t, []string{"consult", "coverage", "init"}, peers)
	assert.Equal(t, "show --fleet", FleetOp("show"))
}

// TestNamed: the workspace, cache and lock timeout a front end names keep
// what For adds, and For keeps them.
func TestNamed(t *testing.T) {
	getenv := func(k string) string {
		return map[string]string{"UCS_AGENT_ID": "agent-a", "UCS_STORE_CACHE": "/cache"}[k]
	}
	c := Named("", getenv, 3*time.Second)
	assert.Equal(t, Call{Workspace: "agent-a", Cache: "/cache", LockTimeout: 3 * time.Second}, c)
	assert.Equal(t, Call{Workspace: "agent-a", Cache: "/cache", LockTimeout: 3 * time.Second, Peers: true}, c.For("consult"))
	assert.Equal(t, Call{Workspace: "w", Cache: "/cache", LockTimeout: 3 * time.Second, Create: true, Peers: true},
		Named("w", getenv, 3*time.Second).For("init"))
}
