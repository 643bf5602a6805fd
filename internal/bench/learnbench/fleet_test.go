package learnbench

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A short seeded fleet run: agents that share their learned evidence
// reach a lower per-agent cumulative regret than the same agents
// isolated (the paired 95% interval above zero), and a newcomer joining
// the trained fleet has at most half an isolated newcomer's regret over
// its first 100 episodes, whether it follows every suggestion or one in
// five of its steps is random (compliance 0.8: there the newcomer was at
// 0.6 while the fleet's beliefs were shrunk towards the prior twice).
// The oracle newcomer under the same compliance, the floor of any
// ranking, is under it. Seeded, so the figures are the same every run.
func TestFleetLearnsTogether(t *testing.T) {
	if testing.Short() {
		t.Skip("a fleet run of three seeds")
	}
	for _, compliance := range []float64{1, 0.8} {
		res, err := RunFleet(FleetConfig{Seeds: 3, SeedBase: 1, Episodes: 600, Agents: 4, Newcomer: 100, Compliance: compliance, Parallel: 2})
		require.NoError(t, err)
		t.Logf("compliance %g: per-agent regret: sharing %.1f, isolated %.1f, gain %.1f [%.1f, %.1f]; newcomer %.1f / %.1f = %.2f (oracle %.2f)",
			compliance, res.Shared.Mean, res.Isolated.Mean, res.Gain.Mean, res.Gain.Lo, res.Gain.Hi,
			res.NewcomerFleet.Mean, res.NewcomerAlone.Mean, res.NewcomerRatio, res.OracleRatio)
		require.Greater(t, res.Gain.Lo, 0.0, "sharing lowers every agent's regret")
		require.Greater(t, res.NewcomerGain.Lo, 0.0)
		require.LessOrEqual(t, res.NewcomerRatio, 0.5, "a newcomer joining the fleet starts at most half as badly")
		require.Less(t, res.OracleRatio, res.NewcomerRatio, "no ranking beats the oracle")
	}
}

// The fleet mode is deterministic: the same configuration gives the same
// bytes.
func TestFleetDeterministic(t *testing.T) {
	cfg := FleetConfig{Seeds: 2, SeedBase: 7, Episodes: 60, Agents: 3, Newcomer: 20, Compliance: 0.8, Parallel: 2}
	a, err := RunFleet(cfg)
	require.NoError(t, err)
	b, err := RunFleet(cfg)
	require.NoError(t, err)
	ja, err := a.JSON()
	require.NoError(t, err)
	jb, err := b.JSON()
	require.NoError(t, err)
	require.Equal(t, string(ja), string(jb))
}

// Isolated agents are independent: an isolated agent's regret is that of
// the same agent playing its episodes with no other agent in the run.
func TestFleetIsolatedIsAlone(t *testing.T) {
	w := NewWorld()
	cfg := FleetConfig{Episodes: 40, Agents: 2, Compliance: 1}
	cfg.defaults()
	plan := NewPlan(w, 3, cfg.Episodes+cfg.Newcomer, -1, 1)
	mk, err := newFleetMaker(&cfg, w, NextDefaultParams, 3)
	require.NoError(t, err)
	run, err := playFleet(mk, plan, &cfg, false)
	require.NoError(t, err)
	solo, err := mk.agent(1, "solo")
	require.NoError(t, err)
	regret := 0.0
	for e := 1; e < cfg.Episodes; e += 2 {
		r, err := playEpisode(w, plan, e, solo.pol)
		require.NoError(t, err)
		regret += r.Regret
	}
	require.Equal(t, regret, run.regret[1])
}

// Through ucs (directory workspaces, each call's bridge with the other
// agents' workspaces as peers) the fleet mode runs and is deterministic:
// a short run twice gives the same figures.
func TestFleetThroughUCS(t *testing.T) {
	if testing.Short() {
		t.Skip("a fleet through ucs")
	}
	cfg := FleetConfig{Seeds: 1, SeedBase: 5, Episodes: 24, Agents: 2, Newcomer: 6, Compliance: 1, Bridge: true}
	a, err := RunFleet(cfg)
	require.NoError(t, err)
	b, err := RunFleet(cfg)
	require.NoError(t, err)
	require.Equal(t, a.Seeds, b.Seeds)
	require.Positive(t, a.Seeds[0].Isolated)
}
