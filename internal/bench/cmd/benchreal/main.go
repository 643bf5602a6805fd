// Command benchreal runs the real-trace learning benchmark (package
// internal/bench/realbench): it replays recorded agent trajectories through ucs
// (consult before each call, report the call after it) and through the
// counting baselines, and prints the Markdown tables; with -out it writes
// results.json there (byte-identical for the same flags and ucs).
//
//	go run ./internal/bench/cmd/benchreal                                  # the committed airline fixture, v4 and v2, in process
//	go run ./internal/bench/cmd/benchreal -ucs bin/ucs -out bin/bench-real # the real binary, one process per call
//	go run ./internal/bench/cmd/benchreal -split dev                       # the development split only
//	go run ./internal/bench/cmd/benchreal -trace retail=/tmp/gpt-4o-retail.json  # a tau-bench file, reduced on the way
//
// A new model plugs in with -models (each name becomes `ucs init --model
// NAME`), -ucs-init-args (added to every init) and -task (the task id in
// consult and report, for a model that keys on it). A next-step predictor
// (package learn/nextstep) replays in memory beside the baselines with
// -proto:
//
//	go run ./internal/bench/cmd/benchreal -models '' -split dev -proto 'v5@id:term=2;v5-ctx@context:'
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/realbench"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

const defaultTrace = "airline=testdata/realtrace/tau-bench-airline-gpt-4o.jsonl"

// options are the command's flags, resolved.
type options struct {
	traces, split, work, out string
	systems                  []realbench.System
	protos                   []realbench.Proto
	parallel, resamples      int
	seed                     uint64
	quiet                    bool
}

func main() {
	var o options
	var models, initArgs, env, bin string
	var task, probe bool
	var protos string
	flag.StringVar(&protos, "proto", "", "semicolon-separated next-step predictors NAME[@TASKKEY][:PARAMS] replayed in memory (TASKKEY id, context or none; PARAMS as nextstep.ParseParams, and agents=N,share=1: the stream split among N agents by task id, learning together)")
	flag.StringVar(&o.traces, "trace", defaultTrace, "comma-separated NAME=PATH datasets: a trace (JSON lines, testdata/realtrace) or a tau-bench trajectory file (JSON array)")
	flag.StringVar(&o.split, "split", "all", "all (the reporting run: its scored half is the held-out split), dev (the first half: for developing a model) or heldout")
	flag.StringVar(&models, "models", "v4,v2", "comma-separated ucs models, each on its own workspace (`ucs init --model NAME`); \"default\": no --model")
	flag.StringVar(&initArgs, "ucs-init-args", "", "extra `ucs init` arguments for every model")
	flag.StringVar(&env, "ucs-env", "", "comma-separated KEY=VALUE environment for every ucs call")
	flag.BoolVar(&probe, "probe", false, "consult with --greedy: every report is the replayed agent's own choice (the agents never saw ucs's advice)")
	flag.BoolVar(&task, "task", false, "pass the task id to ucs (consult --task, report \"task\"): for a model that keys on it")
	flag.StringVar(&bin, "ucs", "", "the ucs binary to drive, one process per call (default: the command line in process)")
	flag.StringVar(&o.out, "out", "", "directory for results.json (default: none)")
	flag.StringVar(&o.work, "work", "", "directory for the workspaces (default: a temporary one, removed)")
	flag.IntVar(&o.parallel, "parallel", 1, "models replayed at once")
	flag.IntVar(&o.resamples, "resamples", realbench.DefaultResamples, "bootstrap resamples")
	flag.Uint64Var(&o.seed, "seed", realbench.DefaultSeed, "bootstrap seed")
	flag.BoolVar(&o.quiet, "q", false, "no progress on stderr")
	flag.Parse()
	if flag.NArg() > 0 {
		fail(fmt.Errorf("unexpected arguments: %v", flag.Args()))
	}
	u := realbench.UCS{InitArgs: strings.Fields(initArgs), Task: task, Probe: probe}
	if bin != "" {
		abs, err := filepath.Abs(bin)
		if err != nil {
			fail(err)
		}
		u.Binary = abs
	}
	for _, kv := range list(env) {
		if !strings.Contains(kv, "=") {
			fail(fmt.Errorf("-ucs-env: %q is not KEY=VALUE", kv))
		}
		u.Env = append(u.Env, kv)
	}
	for _, m := range list(models) {
		s := realbench.System{Name: "ucs " + m, UCS: u}
		if m == "default" {
			s.Name = "ucs"
		} else {
			s.UCS.InitArgs = append([]string{"--model", m}, u.InitArgs...)
		}
		o.systems = append(o.systems, s)
	}
	for _, spec := range strings.Split(protos, ";") {
		if spec = strings.TrimSpace(spec); spec == "" {
			continue
		}
		p, err := parseProto(spec)
		if err != nil {
			fail(err)
		}
		o.protos = append(o.protos, p)
	}
	if o.work != "" {
		if err := run(o); err != nil {
			fail(err)
		}
		return
	}
	dir, err := os.MkdirTemp("", "benchreal-")
	if err != nil {
		fail(err)
	}
	o.work = dir
	err = run(o)
	os.RemoveAll(dir) // before fail exits
	if err != nil {
		fail(err)
	}
}

// run replays and scores every dataset, prints the tables and writes
// results.json (when o.out is set).
func run(o options) error {
	var results []*realbench.Results
	for _, t := range list(o.traces) {
		name, path, ok := strings.Cut(t, "=")
		if !ok {
			name, path = strings.TrimSuffix(filepath.Base(t), filepath.Ext(t)), t
		}
		eps, err := realbench.LoadTrace(path)
		if err != nil {
			return err
		}
		if eps, err = realbench.Split(eps, o.split); err != nil {
			return err
		}
		cfg := realbench.Config{Dataset: name, Episodes: eps, Systems: o.systems, Protos: o.protos, WorkDir: o.work, Parallel: o.parallel}
		if !o.quiet {
			cfg.Progress = os.Stderr
		}
		s, err := realbench.Run(cfg)
		if err != nil {
			return err
		}
		r := realbench.Score(s, realbench.ScoreOptions{Resamples: o.resamples, Seed: o.seed})
		r.Split = o.split
		results = append(results, r)
	}
	fmt.Print(realbench.Markdown(results))
	if o.out == "" {
		return nil
	}
	b, err := realbench.JSON(results)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(o.out, "results.json"), b, 0o644)
}

func list(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchreal:", err)
	os.Exit(1)
}

// parseProto reads NAME[@TASKKEY][:PARAMS].
func parseProto(spec string) (realbench.Proto, error) {
	head, params, _ := strings.Cut(spec, ":")
	name, key, _ := strings.Cut(head, "@")
	if key == "none" {
		key = ""
	}
	if key != "" && key != "id" && key != "context" {
		return realbench.Proto{}, fmt.Errorf("-proto %q: task key %q is not id, context or none", spec, key)
	}
	// agents=N and share=1 split the stream among a fleet (realbench.Proto).
	var agents int
	var share bool
	var rest []string
	for _, kv := range strings.Split(params, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		switch k {
		case "agents":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return realbench.Proto{}, fmt.Errorf("-proto %q: agents wants a whole number from 1", spec)
			}
			agents = n
		case "share":
			share = v == "1"
		default:
			rest = append(rest, kv)
		}
	}
	p, err := nextstep.ParseParams(nextstep.DefaultParams, strings.Join(rest, ","))
	if err != nil {
		return realbench.Proto{}, fmt.Errorf("-proto %q: %v", spec, err)
	}
	return realbench.Proto{Name: strings.TrimSpace(name), Params: p, TaskKey: key, Agents: agents, Share: share}, nil
}
