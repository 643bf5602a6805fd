// Command genknowledge writes to stdout an export package
// (ucs_cognitive_export_v2) of generated knowledge, for benchmarks and
// scale tests:
//
//	go run ./internal/bench/cmd/genknowledge -methodology 10000 -judgment 2000 -deadends 1000 | ucs import
//
// The output is deterministic: the same flags give the same bytes. A
// set over ucs's 16 MiB stdin limit (about 15,000 methodology entries) is
// made in parts: -parts 5 -part 0 ... -part 4, imported in that order.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/knowledgegen"
)

func main() {
	var o knowledgegen.Options
	flag.IntVar(&o.Methodology, "methodology", 1000, "methodology entries")
	flag.IntVar(&o.Judgment, "judgment", 200, "judgment nodes")
	flag.IntVar(&o.DeadEnds, "deadends", 100, "dead ends")
	flag.Uint64Var(&o.Seed, "seed", 1, "random seed")
	flag.IntVar(&o.Parts, "parts", 1, "split the set into this many parts")
	flag.IntVar(&o.Part, "part", 0, "write this part (0 to parts-1)")
	flag.Parse()
	if o.Methodology < 0 || o.Judgment < 0 || o.DeadEnds < 0 || o.Parts < 1 || o.Part < 0 || o.Part >= o.Parts {
		fmt.Fprintln(os.Stderr, "genknowledge: counts must not be negative, and 0 <= part < parts")
		os.Exit(2)
	}
	out := append(knowledgegen.Bytes(o), '\n')
	if _, err := os.Stdout.Write(out); err != nil {
		fmt.Fprintln(os.Stderr, "genknowledge:", err)
		os.Exit(1)
	}
}
