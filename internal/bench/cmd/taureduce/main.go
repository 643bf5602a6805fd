// Command taureduce reduces a tau-bench historical trajectory file
// (sierra-research/tau-bench, historical_trajectories/*.json) to the trace
// the real-trace benchmark replays (internal/bench/realbench): one JSON line per
// trajectory with its task id, trial, reward and instruction, and per tool
// call the tool's name and whether it answered with an error. It reads the
// file it is given and downloads nothing.
//
//	go run ./internal/bench/cmd/taureduce path/to/gpt-4o-airline.json > testdata/realtrace/tau-bench-airline-gpt-4o.jsonl
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/realbench"
)

func main() {
	out := flag.String("o", "", "write the trace to this file (default: stdout)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: taureduce [-o trace.jsonl] TAU-BENCH-TRAJECTORIES.json")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fail(err)
	}
	eps, err := realbench.ReduceTauBench(f)
	f.Close()
	if err != nil {
		fail(err)
	}
	w := os.Stdout
	if *out != "" {
		if w, err = os.Create(*out); err != nil {
			fail(err)
		}
	}
	if err := realbench.WriteTrace(w, eps); err != nil {
		fail(err)
	}
	if err := w.Close(); err != nil {
		fail(err)
	}
	calls, errs := 0, 0
	for _, ep := range eps {
		calls += len(ep.Calls)
		for _, c := range ep.Calls {
			if c.Error {
				errs++
			}
		}
	}
	fmt.Fprintf(os.Stderr, "taureduce: %d trajectories, %d calls (%d errors), %d tools\n", len(eps), calls, errs, len(realbench.Tools(eps)))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "taureduce:", err)
	os.Exit(1)
}
