package bridge

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/transfer"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

const outage = "investigate the production outage"

// trainedPeer is a v5 workspace whose agent found, task after task, that
// an outage's first step is read_logs.
func trainedPeer(t *testing.T) *Bridge {
	t.Helper()
	a := newV5Workspace(t)
	for i := range 12 {
		reportV5(t, a, fmt.Sprintf("incident-%d", i), "read_logs", "success")
	}
	return a
}

// lastEvent is the newest event of a workspace's journal.
func lastEvent(t *testing.T, b *Bridge) pyjson.Value {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(b.opts.Workspace, filepath.FromSlash(workspace.RelJournal)))
	require.NoError(t, err)
	lines := bytes.Split(bytes.TrimSpace(raw), []byte("\n"))
	ev, err := pyjson.Parse(lines[len(lines)-1])
	require.NoError(t, err)
	return ev
}

func fleetShares(c pyjson.Value) map[string]float64 {
	paths, _ := c.Get("suggested_paths")
	out := map[string]float64{}
	for _, p := range paths.Items() {
		if v, ok := p.Get("fleet_share"); ok {
			f, _ := v.Float()
			out[p.StrOf("to")] = f
		}
	}
	return out
}

// A consult with a peer ranks with what the peer learned where the agent
// has learned nothing, says how much of each suggestion's evidence came
// from the fleet, records what it read in its event, and verify replays
// it without the peer.
func TestConsultLearnsFromPeers(t *testing.T) {
	a := trainedPeer(t)
	alone := newV5Workspace(t)
	c := consultV5(t, alone, "incident-b", outage, false)
	require.NotEqual(t, "read_logs", suggestions(c)[0], "without the fleet the manifest's prior decides")
	require.Empty(t, fleetShares(c), "no peers: no fleet_share, the answer as before")
	in, _ := lastEvent(t, alone).Get("input")
	_, recorded := in.Get(transfer.FleetMember)
	require.False(t, recorded, "no peers: nothing recorded")

	b := newV5Workspace(t)
	b.AddPeer("agent-a", a.opts.Workspace)
	c = consultV5(t, b, "incident-b", outage, false)
	require.Equal(t, "read_logs", suggestions(c)[0], "the peer's evidence decides where the agent has none")
	shares := fleetShares(c)
	require.Len(t, shares, len(suggestions(c)), "every suggestion says its fleet share")
	require.Greater(t, shares["read_logs"], 0.99, "all of read_logs's evidence is the peer's")

	in, _ = lastEvent(t, b).Get("input")
	rec, ok := in.Get(transfer.FleetMember)
	require.True(t, ok, "the consult's event records what it read of the fleet")
	require.NotEmpty(t, rec.Members())
	verifyClean(t, b) // the replay has no peer: it ranks from the record

	// The agent's own evidence then wins: read_logs fails for it twice as
	// often as it succeeded for the peer, and the peer's prior gives way.
	for i := range 24 {
		reportV5(t, b, fmt.Sprintf("own-%d", i), "read_logs", "failure")
		reportV5(t, b, fmt.Sprintf("own-%d", i), "grep", "success")
	}
	c = consultV5(t, b, "incident-c", outage, false)
	require.NotEqual(t, "read_logs", suggestions(c)[0], "the agent's own evidence outweighs the fleet's")
	require.Less(t, fleetShares(c)["read_logs"], 0.5)
	verifyClean(t, b)
}

// The same workspaces and peers give byte-identical answers and events.
func TestConsultWithPeersDeterministic(t *testing.T) {
	run := func() (pyjson.Value, pyjson.Value) {
		a := trainedPeer(t)
		b := newV5Workspace(t)
		b.AddPeer("agent-a", a.opts.Workspace)
		b.AddPeer("agent-empty", newV5Workspace(t).opts.Workspace)
		c := consultV5(t, b, "incident-b", outage, false)
		ev := lastEvent(t, b)
		in, _ := ev.Get("input")
		return c.With("workspace", ""), in
	}
	c1, in1 := run()
	c2, in2 := run()
	require.Equal(t, string(pyjson.AppendCompact(nil, c1)), string(pyjson.AppendCompact(nil, c2)))
	require.Equal(t, string(pyjson.AppendCompact(nil, in1)), string(pyjson.AppendCompact(nil, in2)))
}

// A peer of another model (v4) or a directory that is no workspace holds
// nothing: the consult ranks as alone, with a fleet share of 0.
func TestConsultPeersOfOtherModels(t *testing.T) {
	b := newV5Workspace(t)
	b.AddPeer("missing", filepath.Join(t.TempDir(), "none"))
	alone := newV5Workspace(t)
	got := consultV5(t, b, "t", outage, false)
	want := consultV5(t, alone, "t", outage, false)
	require.Equal(t, suggestions(want), suggestions(got))
	for _, s := range fleetShares(got) {
		require.Zero(t, s)
	}
	in, _ := lastEvent(t, b).Get("input")
	rec, ok := in.Get(transfer.FleetMember)
	require.True(t, ok)
	require.Empty(t, rec.Members())
	verifyClean(t, b)
}

// BenchmarkConsultFleet is a v5 consult's cost with peers: none, one or
// four, of a short or a long history (what it reads of a peer is the
// keys its ranking touches, so the history's length must not show).
//
//	go test -run XXX -bench ConsultFleet -benchmem ./bridge/
func BenchmarkConsultFleet(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "manifests", "coding.json"))
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	man := filepath.Join(dir, "manifest.json")
	if err := os.WriteFile(man, raw, 0o600); err != nil {
		b.Fatal(err)
	}
	n := 0
	do := func(ws *Bridge, c Call) {
		if _, err := ws.Do(c); err != nil {
			b.Fatal(err)
		}
	}
	fresh := func() *Bridge {
		n++
		ws := New(Options{Workspace: filepath.Join(dir, fmt.Sprint("ws", n)), Now: testNow})
		do(ws, Call{Op: "init", Args: pyjson.Obj(pyjson.KV("manifest", man), pyjson.KV("model", advice.ModelV5))})
		return ws
	}
	for _, c := range []struct {
		peers, history int
	}{{0, 0}, {1, 20}, {1, 400}, {1, 2000}, {4, 400}} {
		b.Run(fmt.Sprintf("peers=%d/history=%d", c.peers, c.history), func(b *testing.B) {
			ws := fresh()
			for i := range c.peers { // each peer a workspace of its own, as a fleet's are
				a := fresh()
				for j := range c.history {
					do(a, Call{Op: "report", Input: pyjson.Obj(pyjson.KV("task", fmt.Sprint("incident-", j%50)),
						pyjson.KV("action", []string{"read_logs", "grep", "read_file", "edit_file"}[(i+j)%4]), pyjson.KV("success", "success"))})
				}
				ws.AddPeer(fmt.Sprint("agent-", i), a.opts.Workspace)
			}
			args := pyjson.Obj(pyjson.KV("context", outage), pyjson.KV("task", "incident-b"))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				do(ws, Call{Op: "consult", Args: args})
			}
		})
	}
}
