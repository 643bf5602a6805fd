package learnbench

import (
	"fmt"
	"io"
	"math/rand/v2"
	"sync"

	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// The fleet mode measures agents that learn together: Agents agents share
// one seed's episodes (episode e is agent e mod Agents's, in order), each
// with its own next-step model (the v5 model, in memory), either sharing
// (each ranks with the others' evidence as a capped prior,
// nextstep.Model.SetFleet over nextstep.Pooled) or isolated (the same
// agents, the same episodes, no fleet). Then a newcomer plays the
// Newcomer episodes after them, once joining the trained fleet and once
// alone. Every agent of a seed sees the same plan and draws (common
// random numbers), so the differences are paired by seed.

// FleetConfig is one run of the fleet mode.
type FleetConfig struct {
	Seeds    int    // number of seeds (≥ 1)
	SeedBase uint64 // seeds are SeedBase … SeedBase+Seeds−1
	// Episodes are the fleet's episodes, shared among the agents; the
	// newcomer's come after them.
	Episodes int
	Agents   int
	Newcomer int // the newcomer's episodes
	// Compliance is how often an agent follows its first suggestion
	// (otherwise a random out-neighbour).
	Compliance float64
	// NextParams are the model's settings (nil: NextDefaultParams);
	// FleetCap among them weighs the fleet.
	NextParams *nextstep.Params
	Parallel   int
	Log        io.Writer
}

// Defaults of the fleet mode.
const (
	DefaultFleetAgents   = 4
	DefaultFleetNewcomer = 100
)

func (c *FleetConfig) defaults() {
	if c.Seeds <= 0 {
		c.Seeds = DefaultSeeds
	}
	if c.Episodes <= 0 {
		c.Episodes = DefaultEpisodes
	}
	if c.Agents <= 0 {
		c.Agents = DefaultFleetAgents
	}
	if c.Newcomer <= 0 {
		c.Newcomer = DefaultFleetNewcomer
	}
	if c.Parallel <= 0 {
		c.Parallel = 1
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}

// FleetSeed is one seed's figures: the agents' mean cumulative regret
// over their own episodes, sharing and isolated, and the newcomer's
// cumulative regret over its episodes, joining the fleet and alone.
type FleetSeed struct {
	Seed                         uint64
	Shared, Isolated             float64
	SharedAgents, IsolatedAgent  []float64 // each agent's
	NewcomerFleet, NewcomerAlone float64
}

// FleetResults are the fleet mode's figures over seeds.
type FleetResults struct {
	Agents, Episodes, Newcomer int
	Compliance                 float64
	Params                     string
	Seeds                      []FleetSeed
	// Shared and Isolated are the per-agent cumulative regret; Gain is
	// isolated − shared, paired by seed (above zero: sharing helps).
	Shared, Isolated, Gain Interval
	// NewcomerFleet and NewcomerAlone are the newcomer's regret over its
	// first Newcomer episodes, NewcomerGain alone − with the fleet, and
	// NewcomerRatio the ratio of their means (at most ½ asked).
	NewcomerFleet, NewcomerAlone, NewcomerGain Interval
	NewcomerRatio                              float64
}

// RunFleet runs the fleet mode.
func RunFleet(cfg FleetConfig) (*FleetResults, error) {
	cfg.defaults()
	w := NewWorld()
	p := NextDefaultParams
	if cfg.NextParams != nil {
		p = *cfg.NextParams
	}
	seeds := make([]FleetSeed, cfg.Seeds)
	var wg sync.WaitGroup
	sem := make(chan struct{}, cfg.Parallel)
	var mu sync.Mutex
	var firstErr error
	for i := range seeds {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			seed := cfg.SeedBase + uint64(i)
			fs, err := runFleetSeed(&cfg, w, p, seed)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("fleet, seed %d: %w", seed, err)
			}
			seeds[i] = fs
			fmt.Fprintf(cfg.Log, "learnbench: fleet seed %-5d shared %7.1f isolated %7.1f newcomer %6.1f / %6.1f\n",
				seed, fs.Shared, fs.Isolated, fs.NewcomerFleet, fs.NewcomerAlone)
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	res := &FleetResults{Agents: cfg.Agents, Episodes: cfg.Episodes, Newcomer: cfg.Newcomer, Compliance: cfg.Compliance,
		Params: p.String(), Seeds: seeds}
	var sh, is, nf, na []float64
	for _, s := range seeds {
		sh, is = append(sh, s.Shared), append(is, s.Isolated)
		nf, na = append(nf, s.NewcomerFleet), append(na, s.NewcomerAlone)
	}
	res.Shared, res.Isolated, res.Gain = MeanCI(sh), MeanCI(is), PairedDiff(is, sh)
	res.NewcomerFleet, res.NewcomerAlone, res.NewcomerGain = MeanCI(nf), MeanCI(na), PairedDiff(na, nf)
	res.NewcomerRatio = res.NewcomerFleet.Mean / res.NewcomerAlone.Mean
	return res, nil
}

// runFleetSeed plays one seed: the fleet sharing, then isolated, then
// the newcomer with the trained (sharing) fleet and alone.
func runFleetSeed(cfg *FleetConfig, w *World, p nextstep.Params, seed uint64) (FleetSeed, error) {
	plan := NewPlan(w, seed, cfg.Episodes+cfg.Newcomer, -1, 1)
	fs := FleetSeed{Seed: seed}
	shared, err := playFleet(w, plan, p, cfg, seed, true)
	if err != nil {
		return fs, err
	}
	alone, err := playFleet(w, plan, p, cfg, seed, false)
	if err != nil {
		return fs, err
	}
	fs.SharedAgents, fs.Shared = shared.regret, mean(shared.regret)
	fs.IsolatedAgent, fs.Isolated = alone.regret, mean(alone.regret)

	models := make([]nextstep.Store, len(shared.agents))
	for i, a := range shared.agents {
		models[i] = a.m
	}
	join := newFleetAgent(w, p, cfg.Compliance, seed, cfg.Agents)
	join.fleet = nextstep.Pooled(p, models)
	fresh := newFleetAgent(w, p, cfg.Compliance, seed, cfg.Agents)
	for e := cfg.Episodes; e < plan.Episodes; e++ {
		for _, a := range []*nextPolicy{join, fresh} {
			r, err := playEpisode(w, plan, e, a)
			if err != nil {
				return fs, fmt.Errorf("newcomer, episode %d: %w", e, err)
			}
			if a == join {
				fs.NewcomerFleet += r.Regret
			} else {
				fs.NewcomerAlone += r.Regret
			}
		}
	}
	return fs, nil
}

type fleetRun struct {
	agents []*nextPolicy
	regret []float64 // each agent's cumulative regret
}

// playFleet plays the fleet's episodes, episode e by agent e mod Agents,
// each agent ranking with the others' evidence when share is set.
func playFleet(w *World, plan *Plan, p nextstep.Params, cfg *FleetConfig, seed uint64, share bool) (*fleetRun, error) {
	fr := &fleetRun{regret: make([]float64, cfg.Agents)}
	for i := range cfg.Agents {
		fr.agents = append(fr.agents, newFleetAgent(w, p, cfg.Compliance, seed, i))
	}
	if share {
		for i, a := range fr.agents {
			var peers []nextstep.Store
			for j, b := range fr.agents {
				if j != i {
					peers = append(peers, b.m)
				}
			}
			a.fleet = nextstep.Pooled(p, peers)
		}
	}
	for e := range cfg.Episodes {
		i := e % cfg.Agents
		r, err := playEpisode(w, plan, e, fr.agents[i])
		if err != nil {
			return nil, fmt.Errorf("agent %d, episode %d: %w", i, e, err)
		}
		fr.regret[i] += r.Regret
	}
	return fr, nil
}

// newFleetAgent is agent i of a seed: the next-step policy with a random
// stream of its own (the same whether it shares or not, so the two runs
// are paired).
func newFleetAgent(w *World, p nextstep.Params, compliance float64, seed uint64, i int) *nextPolicy {
	r := rand.New(rand.NewPCG(seed, streamPolicy+uint64(1+i)<<8))
	return &nextPolicy{w: w, m: nextstep.New(p), compliance: compliance, r: r}
}
