package learnbench

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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
// alone, and a third time as an oracle under the same compliance (the
// best step whenever it follows, the same random step otherwise): the
// least regret any ranking could give it. Every agent of a seed sees the same plan and draws (common
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
	// Bridge plays every agent through ucs in process (a directory
	// workspace of the default model, v5, each call a bridge whose peers
	// are the other agents' workspaces, bridge.Bridge.AddPeer) instead of
	// its model in memory; WorkDir holds the workspaces (empty: a
	// temporary directory).
	Bridge   bool
	WorkDir  string
	Parallel int
	Log      io.Writer
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
	// NewcomerOracle is the regret of a newcomer that suggests the best
	// step and follows it as often as the others follow theirs.
	NewcomerOracle float64
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
	// NewcomerOracle is the oracle newcomer's regret, and OracleRatio its
	// ratio to NewcomerAlone: below it no ranking can bring the newcomer
	// at this compliance, so a ratio asked under it cannot be reached.
	NewcomerOracle Interval
	OracleRatio    float64
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
			fmt.Fprintf(cfg.Log, "learnbench: fleet seed %-5d shared %7.1f isolated %7.1f newcomer %6.1f / %6.1f (oracle %6.1f)\n",
				seed, fs.Shared, fs.Isolated, fs.NewcomerFleet, fs.NewcomerAlone, fs.NewcomerOracle)
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	res := &FleetResults{Agents: cfg.Agents, Episodes: cfg.Episodes, Newcomer: cfg.Newcomer, Compliance: cfg.Compliance,
		Params: p.String(), Seeds: seeds}
	var sh, is, nf, na, no []float64
	for _, s := range seeds {
		sh, is = append(sh, s.Shared), append(is, s.Isolated)
		nf, na, no = append(nf, s.NewcomerFleet), append(na, s.NewcomerAlone), append(no, s.NewcomerOracle)
	}
	res.Shared, res.Isolated, res.Gain = MeanCI(sh), MeanCI(is), PairedDiff(is, sh)
	res.NewcomerFleet, res.NewcomerAlone, res.NewcomerGain = MeanCI(nf), MeanCI(na), PairedDiff(na, nf)
	res.NewcomerRatio = res.NewcomerFleet.Mean / res.NewcomerAlone.Mean
	res.NewcomerOracle = MeanCI(no)
	res.OracleRatio = res.NewcomerOracle.Mean / res.NewcomerAlone.Mean
	return res, nil
}

// runFleetSeed plays one seed: the fleet sharing, then isolated, then
// the newcomer with the trained (sharing) fleet and alone.
func runFleetSeed(cfg *FleetConfig, w *World, p nextstep.Params, seed uint64) (FleetSeed, error) {
	plan := NewPlan(w, seed, cfg.Episodes+cfg.Newcomer, -1, 1)
	fs := FleetSeed{Seed: seed}
	mk, err := newFleetMaker(cfg, w, p, seed)
	if err != nil {
		return fs, err
	}
	defer mk.close()
	shared, err := playFleet(mk, plan, cfg, true)
	if err != nil {
		return fs, err
	}
	alone, err := playFleet(mk, plan, cfg, false)
	if err != nil {
		return fs, err
	}
	fs.SharedAgents, fs.Shared = shared.regret, mean(shared.regret)
	fs.IsolatedAgent, fs.Isolated = alone.regret, mean(alone.regret)

	join, err := mk.agent(cfg.Agents, "join")
	if err != nil {
		return fs, err
	}
	join.share(shared.agents)
	fresh, err := mk.agent(cfg.Agents, "fresh")
	if err != nil {
		return fs, err
	}
	oracle := &compliantOracle{w: w, compliance: cfg.Compliance, r: mk.stream(cfg.Agents)}
	for e := cfg.Episodes; e < plan.Episodes; e++ {
		for _, a := range []struct {
			pol    Policy
			regret *float64
		}{{join.pol, &fs.NewcomerFleet}, {fresh.pol, &fs.NewcomerAlone}, {oracle, &fs.NewcomerOracle}} {
			r, err := playEpisode(w, plan, e, a.pol)
			if err != nil {
				return fs, fmt.Errorf("newcomer, episode %d: %w", e, err)
			}
			*a.regret += r.Regret
		}
	}
	return fs, nil
}

type fleetRun struct {
	agents []*fleetAgent
	regret []float64 // each agent's cumulative regret
}

// playFleet plays the fleet's episodes, episode e by agent e mod Agents,
// each agent ranking with the others' evidence when share is set.
func playFleet(mk *fleetMaker, plan *Plan, cfg *FleetConfig, share bool) (*fleetRun, error) {
	fr := &fleetRun{regret: make([]float64, cfg.Agents)}
	label := "isolated"
	if share {
		label = "shared"
	}
	for i := range cfg.Agents {
		a, err := mk.agent(i, label)
		if err != nil {
			return nil, err
		}
		fr.agents = append(fr.agents, a)
	}
	if share {
		for i, a := range fr.agents {
			a.share(append(slices.Clone(fr.agents[:i]), fr.agents[i+1:]...))
		}
	}
	for e := range cfg.Episodes {
		i := e % cfg.Agents
		r, err := playEpisode(mk.w, plan, e, fr.agents[i].pol)
		if err != nil {
			return nil, fmt.Errorf("agent %d, episode %d: %w", i, e, err)
		}
		fr.regret[i] += r.Regret
	}
	return fr, nil
}

// A fleetAgent is one agent of a fleet run: its policy, and what the
// others read of it (its model in memory, or its workspace).
type fleetAgent struct {
	pol   Policy
	model *nextPolicy // in memory
	ucs   *inProcess  // through ucs
}

// share makes the agent rank with the others' evidence: their models
// pooled (nextstep.Pooled), or their workspaces as its bridge's peers.
func (a *fleetAgent) share(others []*fleetAgent) {
	if a.model != nil {
		var peers []nextstep.Store
		for _, o := range others {
			peers = append(peers, o.model.m)
		}
		a.model.fleet = nextstep.Pooled(a.model.m.P, peers)
		return
	}
	for _, o := range others {
		a.ucs.peers = append(a.ucs.peers, o.ucs.dir)
	}
}

// fleetMaker makes a seed's agents.
type fleetMaker struct {
	cfg           *FleetConfig
	w             *World
	p             nextstep.Params
	seed          uint64
	dir, manifest string
	removeDir     bool
}

func newFleetMaker(cfg *FleetConfig, w *World, p nextstep.Params, seed uint64) (*fleetMaker, error) {
	mk := &fleetMaker{cfg: cfg, w: w, p: p, seed: seed}
	if !cfg.Bridge {
		return mk, nil
	}
	dir := filepath.Join(cfg.WorkDir, fmt.Sprintf("fleet-%d", seed))
	if cfg.WorkDir == "" {
		d, err := os.MkdirTemp("", "learnbench-fleet-")
		if err != nil {
			return nil, err
		}
		dir, mk.removeDir = d, true
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	mk.dir, mk.manifest = dir, filepath.Join(dir, "manifest.json")
	return mk, os.WriteFile(mk.manifest, w.ManifestJSON(), 0o644)
}

func (mk *fleetMaker) close() {
	if mk.removeDir {
		os.RemoveAll(mk.dir)
	}
}

// agent is agent i of the seed: with a random stream of its own (the
// same whether it shares or not, so the two runs are paired).
func (mk *fleetMaker) agent(i int, label string) (*fleetAgent, error) {
	r := mk.stream(i)
	if !mk.cfg.Bridge {
		np := &nextPolicy{w: mk.w, m: nextstep.New(mk.p), compliance: mk.cfg.Compliance, r: r}
		return &fleetAgent{pol: np, model: np}, nil
	}
	ws := filepath.Join(mk.dir, fmt.Sprintf("%s-%d", label, i))
	l, err := InProcess{}.Init(ws, mk.manifest)
	if err != nil {
		return nil, err
	}
	cursor, err := l.Cursor()
	if err != nil {
		return nil, err
	}
	return &fleetAgent{pol: &ucsPolicy{w: mk.w, l: l, compliance: mk.cfg.Compliance, r: r, cursor: cursor, scratch: ws},
		ucs: l.(*inProcess)}, nil
}

// stream is agent i's random stream: whether to follow and which random
// step to take.
func (mk *fleetMaker) stream(i int) *rand.Rand {
	return rand.New(rand.NewPCG(mk.seed, streamPolicy+uint64(1+i)<<8))
}

// A compliantOracle knows the hidden truth and suggests the best step,
// followed as often as an agent follows its model's suggestion. It draws
// from its stream exactly as nextPolicy does (whether to follow when the
// compliance is under 1, then a random step when it does not), so on the
// newcomer's stream it takes the newcomer's random steps: its regret is
// what those steps cost, the floor of any ranking's.
type compliantOracle struct {
	w          *World
	compliance float64
	r          *rand.Rand
}

func (p *compliantOracle) Begin(*State) error { return nil }
func (p *compliantOracle) Choose(st *State) (string, error) {
	if p.compliance >= 1 || p.r.Float64() < p.compliance {
		t, _ := p.w.BestP(st.Family, st.Position, st.Drifted, st.Cur)
		return t, nil
	}
	return randomOf(st.Out, p.r), nil
}
func (p *compliantOracle) Observe(*State, string, bool) error     { return nil }
func (p *compliantOracle) Close() error                           { return nil }
func (p *compliantOracle) Probe([]ProbeQuery) ([][]string, error) { return nil, nil }
