package nextstep

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// learned returns a model that played n episodes of a seeded stream.
func learned(seed uint64, n int) *Model {
	m := New(DefaultParams)
	r := rand.New(rand.NewPCG(seed, 9))
	for e := range n {
		ep := NewEpisode(fmt.Sprint(e%5), []string{"w" + fmt.Sprint(e%3), "common"})
		for range 4 {
			m.Rank(ep, tools)
			m.Observe(ep, nil, tools[r.IntN(len(tools))], b2f(r.Float64() < 0.7), 1, r.IntN(2) == 0)
		}
	}
	return m
}

func b2f(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}

// A fleet that holds nothing, or none at all, changes no score: a model
// without peers ranks bit for bit as before.
func TestFleetEmptyRanksAsAlone(t *testing.T) {
	m := learned(1, 40)
	ep := NewEpisode("2", []string{"w1", "common"})
	alone := m.Greedy(ep, tools)
	m.SetFleet(MapStore{})
	require.Equal(t, alone, m.Greedy(ep, tools))
	require.Zero(t, m.FleetShare(ep, alone[0].To))
	m.SetFleet(Pooled(m.P, nil))
	require.Equal(t, alone, m.Greedy(ep, tools))
	m.SetFleet(nil)
	require.Equal(t, alone, m.Greedy(ep, tools))
}

// A peer's evidence decides where the agent has none, and the agent's
// own evidence wins where it has it: the fleet is a prior capped at
// FleetCap outcomes per key.
func TestFleetOwnEvidenceWins(t *testing.T) {
	peer := New(DefaultParams)
	for range 200 { // the peer found that d succeeds after the start, a fails
		play(peer, "", []string{"fix"}, "d", true)
		play(peer, "", []string{"fix"}, "a", false)
	}
	fresh := New(DefaultParams)
	fresh.SetFleet(Pooled(fresh.P, []Store{peer}))
	ep := NewEpisode("", []string{"fix"})
	require.Equal(t, "d", top(fresh, ep), "the fleet decides where the agent knows nothing")
	require.InDelta(t, 1, fresh.FleetShare(ep, "d"), 1e-12)
	alone := New(DefaultParams)
	require.NotEqual(t, "d", top(alone, ep), "without the fleet d is not first")

	// The agent's own outcomes, twice the cap: d fails here, c succeeds.
	own := New(DefaultParams)
	for range 2 * int(DefaultParams.FleetCap) {
		play(own, "", []string{"fix"}, "d", false)
		play(own, "", []string{"fix"}, "c", true)
	}
	own.SetFleet(Pooled(own.P, []Store{peer}))
	require.Equal(t, "c", top(own, ep), "200 peer outcomes capped below the agent's own")
	share := own.FleetShare(ep, "d")
	require.Greater(t, share, 0.0)
	require.Less(t, share, 0.5, "the cap keeps the fleet's share below the agent's own")
}

// The fleet is read only by the ranking: what the model learns and
// writes is its own evidence, with or without peers.
func TestFleetNeverWritten(t *testing.T) {
	peer := learned(2, 50)
	run := func(fleet bool) []Record {
		st := MapStore{}
		st.Put(learned(3, 20).Records())
		m := Open(DefaultParams, st, Globals{Beta: 0.5})
		if fleet {
			m.SetFleet(Pooled(m.P, []Store{peer}))
		}
		ep := NewEpisode("1", []string{"w2", "common"})
		for _, to := range []string{"b", "c", "a"} {
			m.Rank(ep, tools)
			m.Observe(ep, nil, to, 1, 1, false) // advice followed: only the success model learns
		}
		return m.Changes(true)
	}
	require.Equal(t, run(false), run(true))
}

// What a ranking read of the fleet, recorded, ranks the same without the
// peers: a replay needs only the record.
func TestFleetRecordReplays(t *testing.T) {
	peers := []Store{learned(4, 60), learned(5, 60)}
	m := learned(6, 10)
	rec := &Recorder{Store: Pooled(m.P, peers)}
	m.SetFleet(rec)
	ep := NewEpisode("3", []string{"w0", "common"})
	want := m.Rank(NewEpisode("3", []string{"w0", "common"}), tools)
	require.NotEmpty(t, rec.Keys())

	r := learned(6, 10)
	r.SetFleet(rec.Read)
	require.Equal(t, want, r.Rank(ep, tools))
	for _, s := range want {
		require.Equal(t, m.FleetShare(ep, s.To), r.FleetShare(ep, s.To))
	}

	// The records cut to the tools the rankings read rank the same too.
	trimmed := MapStore{}
	size, cut := 0, 0
	read := r.FleetRead()
	for k, v := range rec.Read {
		tv, err := TrimRecord(k, v, read[k])
		require.NoError(t, err)
		trimmed[k] = tv
		size, cut = size+len(v), cut+len(tv)
	}
	x := learned(6, 10)
	x.SetFleet(trimmed)
	require.Equal(t, want, x.Rank(NewEpisode("3", []string{"w0", "common"}), tools))
	for _, s := range want {
		require.Equal(t, m.FleetShare(ep, s.To), x.FleetShare(ep, s.To))
	}
	require.LessOrEqual(t, cut, size)
	// Only three candidates: less is read, and less recorded.
	few := learned(6, 10)
	frec := &Recorder{Store: Pooled(m.P, peers)}
	few.SetFleet(frec)
	fewEp := NewEpisode("3", []string{"w0", "common"})
	fwant := few.Rank(fewEp, tools[:3])
	ftrim := MapStore{}
	fsize, fcut := 0, 0
	for k, v := range frec.Read {
		tv, err := TrimRecord(k, v, few.FleetRead()[k])
		require.NoError(t, err)
		ftrim[k] = tv
		fsize, fcut = fsize+len(v), fcut+len(tv)
	}
	y := learned(6, 10)
	y.SetFleet(ftrim)
	require.Equal(t, fwant, y.Rank(NewEpisode("3", []string{"w0", "common"}), tools[:3]))
	require.Less(t, fcut, fsize)
}

// Pooled sums the peers' counts of a key.
func TestPooledSumsCounts(t *testing.T) {
	a, b := New(DefaultParams), New(DefaultParams)
	play(a, "", nil, "d", true)
	play(b, "", nil, "d", true)
	play(b, "", nil, "d", false)
	raw, err := Pooled(DefaultParams, []Store{a, b, MapStore{}}).Record(keyPrev(Start))
	require.NoError(t, err)
	c, err := decodeCounts(raw)
	require.NoError(t, err)
	require.Equal(t, int64(2), c.To["d"].NS)
	require.Equal(t, int64(1), c.To["d"].NF)
	none, err := Pooled(DefaultParams, []Store{a}).Record(keyPrev("zz"))
	require.NoError(t, err)
	require.Nil(t, none)
}

// A model with no evidence of its own that ranks with one peer's (under
// the cap) believes what the peer believes: the fleet's beliefs are
// posteriors, which hold the prior already, so the prior is not applied
// to their means a second time. (Combining the peer's mean as if it
// were evidence shrank every fleet weight towards the prior by its
// variance over the prior's, a half for a well-known transition, and
// the newcomer of a trained fleet ranked with a weakened fleet.)
func TestFleetBeliefIsThePeers(t *testing.T) {
	prior := func(to string) float64 { return float64(len(to)) * 3 } // a manifest's utilities
	for _, withPrior := range []bool{false, true} {
		peer := New(DefaultParams)
		fresh := New(DefaultParams)
		if withPrior {
			peer.Prior, fresh.Prior = prior, prior
		}
		for i := range 8 { // fewer outcomes than the cap: the fleet enters whole
			play(peer, "", []string{"fix"}, "d", i%4 != 0)
		}
		fresh.SetFleet(Pooled(fresh.P, []Store{peer}))
		ep := NewEpisode("", []string{"fix"})
		fs := fresh.sfeatures(ep, "d")
		require.NotEmpty(t, fs)
		for _, f := range fs {
			w := peer.group(f.group)[f.to]
			require.NotNil(t, w, f.group)
			got := fresh.rankBelief(f)
			require.InDelta(t, w.M, got.M, 1e-12, "prior %v, %q: the peer's mean", withPrior, f.group)
			require.InDelta(t, w.V, got.V, 1e-12, "prior %v, %q: the peer's variance", withPrior, f.group)
		}
		z, _ := fresh.logit(ep, "d")
		zp, _ := peer.logit(ep, "d")
		require.InDelta(t, zp, z, 1e-12, "the same log-odds of d as the peer's")
	}
}
