// Command benchlearning runs the learning-quality benchmark (package
// internal/bench/learnbench): every policy on every seed, driving ucs as
// an agent does (consult → choose → report), and prints the summary tables
// in Markdown. With -out it writes results.json (byte-identical for the
// same flags and ucs) and curves.svg there.
//
//	go run ./internal/bench/cmd/benchlearning -seeds 10 -episodes 600 -ucs bin/ucs -out bench-learning
//
// A new model plugs in with its init arguments:
//
//	benchlearning -policies v2,ucs@1.0,tabular -ucs-init-args "--model v3"
//
// Seeds 1–999 are for development and tuning; seeds from 1000 on are
// held out (see docs/learning-benchmark.md).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/learnbench"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

func main() {
	var cfg learnbench.Config
	var seedBase uint64
	var policies, initArgs, env, out string
	var quiet bool
	var learnParams, nextParams string
	var fleet learnbench.FleetConfig
	flag.StringVar(&nextParams, "next-params", "", "next-step predictor settings for the next@C policies (in memory), e.g. \"explore=1,term=2\" (nextstep.ParseParams)")
	flag.StringVar(&learnParams, "learn-params", "", "v3 settings for the learn@C policies (in memory), e.g. \"explore=0.5,priorvar=1\"")
	flag.IntVar(&cfg.Seeds, "seeds", learnbench.DefaultSeeds, "number of seeds")
	flag.Uint64Var(&seedBase, "seed-base", 1, "first seed (1000 and above: held-out seeds, never used while tuning)")
	flag.IntVar(&cfg.Episodes, "episodes", learnbench.DefaultEpisodes, "episodes per run")
	flag.StringVar(&policies, "policies", strings.Join(learnbench.DefaultPolicies, ","),
		"comma-separated policies: random, names, v2[@C], ucs[@C], learn[@C] (v3 in memory), next[@C] (the next-step predictor, in memory), tabular, ucb, oracle (C: compliance, default 1)")
	flag.StringVar(&cfg.UCS, "ucs", "", "the ucs binary to drive, one process per call (default: in process)")
	flag.StringVar(&initArgs, "ucs-init-args", "", "extra `ucs init` arguments for the ucs policies (not v2), e.g. \"--model v3\"")
	flag.StringVar(&env, "ucs-env", "", "comma-separated KEY=VALUE environment for the ucs policies (every call of the binary; init only in process)")
	flag.StringVar(&out, "out", "", "directory for results.json and curves.svg (default: none)")
	flag.IntVar(&cfg.ProbeEvery, "probe-every", learnbench.DefaultProbeEvery, "probe the rankings every N episodes (0: only at the fixed points; negative: no probes, no ranking metrics)")
	flag.IntVar(&cfg.ProbeSentences, "probe-sentences", learnbench.DefaultProbeSentences, "probe sentences per family")
	flag.IntVar(&cfg.Bin, "bin", learnbench.DefaultBin, "episodes per bin of the learning curves")
	flag.IntVar(&cfg.Parallel, "parallel", 1, "runs at once")
	flag.StringVar(&cfg.WorkDir, "work", "", "directory for the workspaces (default: a temporary one, removed)")
	flag.BoolVar(&quiet, "q", false, "no progress on stderr")
	flag.IntVar(&fleet.Agents, "fleet", 0, "fleet mode: this many agents (the v5 model in memory) share the episodes, with sharing against isolated, then a newcomer joins (0: the policies' benchmark)")
	flag.IntVar(&fleet.Newcomer, "fleet-newcomer", learnbench.DefaultFleetNewcomer, "fleet mode: the newcomer's episodes")
	flag.Float64Var(&fleet.Compliance, "fleet-compliance", 1, "fleet mode: how often an agent follows its first suggestion")
	flag.BoolVar(&fleet.Bridge, "fleet-ucs", false, "fleet mode: every agent through ucs in process (a directory workspace, the others as its peers), not its model in memory")
	flag.Parse()
	if flag.NArg() > 0 {
		fail(fmt.Errorf("unexpected arguments: %v", flag.Args()))
	}
	cfg.SeedBase = seedBase
	for _, p := range strings.Split(policies, ",") {
		if p = strings.TrimSpace(p); p != "" {
			cfg.Policies = append(cfg.Policies, p)
		}
	}
	cfg.UCSInitArgs = strings.Fields(initArgs)
	if learnParams != "" {
		p, err := learnbench.ParseParams(learnParams)
		if err != nil {
			fail(err)
		}
		cfg.LearnParams = &p
	}
	if nextParams != "" {
		p, err := nextstep.ParseParams(learnbench.NextDefaultParams, nextParams)
		if err != nil {
			fail(err)
		}
		cfg.NextParams = &p
	}
	for _, kv := range strings.Split(env, ",") {
		if kv = strings.TrimSpace(kv); kv != "" {
			if !strings.Contains(kv, "=") {
				fail(fmt.Errorf("-ucs-env: %q is not KEY=VALUE", kv))
			}
			cfg.UCSEnv = append(cfg.UCSEnv, kv)
		}
	}
	if cfg.UCS != "" {
		abs, err := filepath.Abs(cfg.UCS)
		if err != nil {
			fail(err)
		}
		if _, err := os.Stat(abs); err != nil {
			fail(fmt.Errorf("-ucs: %v (build it with `make build`)", err))
		}
		cfg.UCS = abs
	}
	if !quiet {
		cfg.Log = os.Stderr
	}
	start := time.Now()
	if fleet.Agents > 0 {
		runFleet(fleet, cfg, out)
		return
	}
	res, err := learnbench.Run(cfg)
	if err != nil {
		fail(err)
	}
	res.WriteTables(os.Stdout)
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			fail(err)
		}
		data, err := res.JSON()
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(filepath.Join(out, "results.json"), data, 0o644); err != nil {
			fail(err)
		}
		f, err := os.Create(filepath.Join(out, "curves.svg"))
		if err != nil {
			fail(err)
		}
		if err := res.WriteSVG(f); err != nil {
			fail(err)
		}
		if err := f.Close(); err != nil {
			fail(err)
		}
		fmt.Fprintf(os.Stderr, "benchlearning: wrote %s and %s\n", filepath.Join(out, "results.json"), filepath.Join(out, "curves.svg"))
	}
	if !quiet {
		fmt.Fprintf(os.Stderr, "benchlearning: %s\n", time.Since(start).Round(time.Second))
	}
}

// runFleet runs the fleet mode with the benchmark's seeds, episodes,
// settings and parallelism, and writes fleet.json to out.
func runFleet(fc learnbench.FleetConfig, cfg learnbench.Config, out string) {
	fc.Seeds, fc.SeedBase, fc.Episodes, fc.NextParams, fc.Parallel, fc.Log, fc.WorkDir = cfg.Seeds, cfg.SeedBase, cfg.Episodes, cfg.NextParams, cfg.Parallel, cfg.Log, cfg.WorkDir
	res, err := learnbench.RunFleet(fc)
	if err != nil {
		fail(err)
	}
	res.WriteTables(os.Stdout)
	if out == "" {
		return
	}
	data, err := res.JSON()
	if err == nil {
		err = os.MkdirAll(out, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(out, "fleet.json"), append(data, '\n'), 0o644)
	}
	if err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "benchlearning: wrote %s\n", filepath.Join(out, "fleet.json"))
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "benchlearning: %v\n", err)
	os.Exit(1)
}
