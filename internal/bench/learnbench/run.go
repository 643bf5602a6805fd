package learnbench

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// Config is one benchmark run.
type Config struct {
	Seeds    int    // number of seeds (≥ 1)
	SeedBase uint64 // seeds are SeedBase … SeedBase+Seeds−1
	Episodes int
	Policies []string // see ParsePolicy
	// UCS is the ucs binary; empty drives ucs in process.
	UCS string
	// UCSInitArgs are added to `ucs init` for the "ucs" policies (the
	// "v2" policies init with --model v2); UCSEnv (KEY=VALUE) likewise.
	UCSInitArgs []string
	UCSEnv      []string
	// LearnParams are the v3 model's settings for the "learn" policies
	// (nil: learn.DefaultParams).
	LearnParams *learn.Params
	// NextParams are the next-step predictor's settings for the "next"
	// policies (nil: NextDefaultParams).
	NextParams *nextstep.Params
	// ProbeEvery is the probe period in episodes (0: only the fixed probe
	// points, negative: no probes and no ranking metrics); ProbeSentences
	// the probe sentences per family.
	ProbeEvery     int
	ProbeSentences int
	Bin            int    // episodes per bin of the learning curves
	Parallel       int    // runs at once
	WorkDir        string // for workspaces; empty: a temporary directory
	Log            io.Writer
}

// Defaults of the command and of a zero Config.
const (
	DefaultEpisodes       = 600
	DefaultSeeds          = 10
	DefaultProbeEvery     = 50
	DefaultProbeSentences = 3
	DefaultBin            = 25
	// DriftWindow is the rolling window (episodes) of drift recovery.
	DriftWindow = 50
)

// DefaultPolicies are compared when none are named.
var DefaultPolicies = []string{"random", "names", "v2", "ucs@1.0", "ucs@0.8", "tabular", "ucb", "oracle"}

func (c *Config) defaults() {
	if c.Seeds <= 0 {
		c.Seeds = DefaultSeeds
	}
	if c.Episodes <= 0 {
		c.Episodes = DefaultEpisodes
	}
	if len(c.Policies) == 0 {
		c.Policies = DefaultPolicies
	}
	if c.ProbeSentences <= 0 {
		c.ProbeSentences = DefaultProbeSentences
	}
	if c.Bin <= 0 {
		c.Bin = DefaultBin
	}
	if c.Parallel <= 0 {
		c.Parallel = 1
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}

// driver returns the driver of a ucs policy kind.
func (c *Config) driver(kind string) Driver {
	args, env := []string{"--model", "v2"}, []string(nil) // the reference's model
	if kind == "ucs" {
		args, env = c.UCSInitArgs, c.UCSEnv // none: a new workspace's default (v3)
	}
	if c.UCS != "" {
		return Binary{Path: c.UCS, InitArgs: args, Env: env}
	}
	return InProcess{InitArgs: args, Env: env}
}

// runKey identifies what a policy computes: two policies with the same key
// (v2 and ucs@1.0 when ucs is given --model v2) make identical runs.
func (c *Config) runKey(s PolicySpec) string {
	if s.Kind == "learn" {
		return fmt.Sprintf("learn|%s|%g|%s", formatParams(c.learnParams()), s.Compliance, s.Feedback)
	}
	if s.Kind == "next" {
		return fmt.Sprintf("next|%s|%g", c.nextParams(), s.Compliance)
	}
	if !s.UsesUCS() {
		return s.Name
	}
	d := c.driver(s.Kind)
	var env []string
	if s.Kind == "ucs" {
		env = c.UCSEnv
	}
	return fmt.Sprintf("ucs|%s|%s|%g|%s", d.Describe(), strings.Join(env, ","), s.Compliance, s.Feedback)
}

func (c *Config) learnParams() learn.Params {
	if c.LearnParams != nil {
		return *c.LearnParams
	}
	return learn.DefaultParams
}

func (c *Config) nextParams() nextstep.Params {
	if c.NextParams != nil {
		return *c.NextParams
	}
	return NextDefaultParams
}

// NextDefaultParams are the next-step predictor's settings on the
// simulator: its defaults, the same as on real traces. (Its frequencies
// count only the agent's own choices, so an agent that always follows it
// is advised by the success model and its exploration alone.)
var NextDefaultParams = nextstep.DefaultParams

// A SeedRun is one policy on one seed.
type SeedRun struct {
	Seed     uint64
	Episodes []EpisodeResult
	Probes   []ProbeScores
	Calls    CallCounts
}

// Run runs every policy on every seed and aggregates the results.
func Run(cfg Config) (*Results, error) {
	cfg.defaults()
	w := NewWorld()
	specs := make([]PolicySpec, len(cfg.Policies))
	for i, name := range cfg.Policies {
		s, err := ParsePolicy(name)
		if err != nil {
			return nil, err
		}
		specs[i] = s
	}
	work := cfg.WorkDir
	if work == "" {
		dir, err := os.MkdirTemp("", "learnbench-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		work = dir
	}
	work, err := filepath.Abs(work)
	if err != nil {
		return nil, err
	}
	manifest := filepath.Join(work, "manifest.json")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(manifest, w.ManifestJSON(), 0o644); err != nil {
		return nil, err
	}
	if cfg.UCS != "" {
		// One binary for the whole run, whatever happens to the original
		// (a rebuild, make clean) while it lasts.
		bin, err := os.ReadFile(cfg.UCS)
		if err != nil {
			return nil, err
		}
		cfg.UCS = filepath.Join(work, "ucs")
		if err := os.WriteFile(cfg.UCS, bin, 0o755); err != nil {
			return nil, err
		}
	}
	seeds := make([]uint64, cfg.Seeds)
	plans := make([]*Plan, cfg.Seeds)
	for i := range seeds {
		seeds[i] = cfg.SeedBase + uint64(i)
		plans[i] = NewPlan(w, seeds[i], cfg.Episodes, cfg.ProbeEvery, cfg.ProbeSentences)
	}

	// One job per distinct run key and seed.
	keyOf := make([]string, len(specs))
	firstOf := map[string]int{}
	type job struct{ spec, seed int }
	var jobs []job
	for i, s := range specs {
		keyOf[i] = cfg.runKey(s)
		if _, ok := firstOf[keyOf[i]]; ok {
			continue
		}
		firstOf[keyOf[i]] = i
		for j := range seeds {
			jobs = append(jobs, job{i, j})
		}
	}
	runs := make(map[[2]int]*SeedRun)
	var mu sync.Mutex
	var firstErr error
	queue := make(chan job)
	var wg sync.WaitGroup
	for range cfg.Parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range queue {
				start := time.Now()
				dir := filepath.Join(work, fmt.Sprintf("run-%d-%d", jb.spec, jb.seed))
				r, err := runOne(&cfg, w, specs[jb.spec], plans[jb.seed], dir, manifest)
				os.RemoveAll(dir)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("%s, seed %d: %w", specs[jb.spec].Name, seeds[jb.seed], err)
				}
				runs[[2]int{jb.spec, jb.seed}] = r
				if err == nil {
					fmt.Fprintf(cfg.Log, "learnbench: %-10s seed %-5d %6.1fs\n", specs[jb.spec].Name, seeds[jb.seed], time.Since(start).Seconds())
				}
				mu.Unlock()
			}
		}()
	}
	for _, jb := range jobs {
		mu.Lock()
		failed := firstErr != nil
		mu.Unlock()
		if failed {
			break
		}
		queue <- jb
	}
	close(queue)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}

	res := newResults(&cfg, w, seeds, plans)
	for i, s := range specs {
		first := firstOf[keyOf[i]]
		var sr []*SeedRun
		for j := range seeds {
			sr = append(sr, runs[[2]int{first, j}])
		}
		pr := aggregate(&cfg, w, plans, s, sr)
		if first != i {
			pr.SameAs = specs[first].Name
		}
		res.Policies = append(res.Policies, pr)
	}
	return res, nil
}

// newPolicy builds a policy for one seed.
func newPolicy(cfg *Config, w *World, s PolicySpec, seed uint64, dir, manifest string) (Policy, error) {
	r := rand.New(rand.NewPCG(seed, streamPolicy))
	pr := rand.New(rand.NewPCG(seed, streamProbe+100))
	switch s.Kind {
	case "random":
		return &randomPolicy{w: w, r: r, pr: pr}, nil
	case "names":
		return &namesPolicy{w: w, r: r, pr: pr}, nil
	case "tabular":
		return &tabularPolicy{w: w, epsilon: 0.1, arms: map[armKey]*armStats{}, r: r, pr: pr}, nil
	case "ucb":
		return &ucbPolicy{w: w, c: math.Sqrt2, arms: map[armKey]*armStats{}, r: r, pr: pr}, nil
	case "oracle":
		return &oraclePolicy{w: w}, nil
	case "learn":
		l, err := newMemory(w, cfg.learnParams())
		if err != nil {
			return nil, err
		}
		return &ucsPolicy{w: w, l: l, compliance: s.Compliance, feedback: s.Feedback, r: r, scratch: dir}, nil
	case "next":
		return &nextPolicy{w: w, m: nextstep.New(cfg.nextParams()), compliance: s.Compliance, r: r}, nil
	}
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return nil, err
	}
	l, err := cfg.driver(s.Kind).Init(ws, manifest)
	if err != nil {
		return nil, err
	}
	cursor, err := l.Cursor()
	if err != nil {
		return nil, err
	}
	return &ucsPolicy{w: w, l: l, compliance: s.Compliance, feedback: s.Feedback, r: r, cursor: cursor, scratch: dir}, nil
}

// runOne plays every episode of a plan with one policy, probing at the
// plan's probe points.
func runOne(cfg *Config, w *World, s PolicySpec, plan *Plan, dir, manifest string) (*SeedRun, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	pol, err := newPolicy(cfg, w, s, plan.Seed, dir, manifest)
	if err != nil {
		return nil, err
	}
	defer pol.Close()
	run := &SeedRun{Seed: plan.Seed}
	probeAt := map[int]bool{}
	for _, e := range plan.ProbeAt {
		probeAt[e] = true
	}
	probe := func(e int) error {
		qs := probeQueries(w, plan, e)
		rankings, err := pol.Probe(qs)
		if err != nil {
			return fmt.Errorf("probe after %d episodes: %w", e, err)
		}
		run.Probes = append(run.Probes, scoreProbe(w, plan, e, qs, rankings))
		return nil
	}
	for e := range plan.Episodes {
		if probeAt[e] {
			if err := probe(e); err != nil {
				return nil, err
			}
		}
		r, err := playEpisode(w, plan, e, pol)
		if err != nil {
			return nil, fmt.Errorf("episode %d: %w", e, err)
		}
		run.Episodes = append(run.Episodes, r)
	}
	if probeAt[plan.Episodes] {
		if err := probe(plan.Episodes); err != nil {
			return nil, err
		}
	}
	if u, ok := pol.(*ucsPolicy); ok {
		run.Calls = u.calls
	}
	return run, nil
}

// num is a float64 that JSON writes rounded to 6 decimals, NaN as null.
type num float64

func (n num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return []byte(strconv.FormatFloat(math.Round(f*1e6)/1e6, 'f', -1, 64)), nil
}
