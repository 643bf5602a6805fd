// Command benchcalls measures whole ucs calls as an agent makes them: one
// process per call, fork/exec to exit. It builds workspaces at several
// sizes (generated knowledge imported with `ucs import`), runs every
// command many times on each, and prints a Markdown table of the median
// wall time and the peak resident memory per command and size. Given the
// reference's source directory (-ref, python3 on PATH) it builds the same
// workspaces with `bridge.py import` and measures the reference beside ucs,
// its runs interleaved with ucs's so both see the same machine.
//
//	go run ./internal/bench/cmd/benchcalls -ucs bin/ucs -ref /path/to/reference/src
//
// Sizes are methodology/judgment/dead-end entry counts: fresh (none), 1k
// (1000/200/100), 10k (10000/2000/1000) and, with -sizes, 50k
// (50000/10000/5000) and 100k (80000/12000/8000: a long-lived agent's
// workspace). With -growth it also prints how report and consult time grow
// with the entry count.
package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/knowledgegen"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

type size struct {
	name                    string
	methodology, judg, dead int
}

var knownSizes = []size{
	{"fresh", 0, 0, 0},
	{"1k", 1000, 200, 100},
	{"10k", 10000, 2000, 1000},
	{"50k", 50000, 10000, 5000},
	{"100k", 80000, 12000, 8000},
}

// consultBytes is the largest consult answer seen at each size: its
// knowledge is bounded (at most so many hits per kind, a byte cap), so the
// answer must not grow with the entries.
var consultBytes = map[string]int{}

// commands in the order they are measured.
var commands = []string{"init", "consult", "report", "reflect", "status", "resume", "synthesize", "export"}

// importPart is the most methodology entries one import call carries: ucs
// accepts at most 16 MiB on stdin.
const importPart = 10000

type config struct {
	ucs, ref, python string
	runs             int
	sets             int
	block            int
	refMax           int
	sizes            []size
	growth           bool
	keep             bool
	verbose          bool
	runner           *runner
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == runnerFlag {
		serveRunner(os.Stdin, os.Stdout)
		return
	}
	var c config
	var sizes string
	flag.StringVar(&c.ucs, "ucs", "bin/ucs", "the ucs binary (build it with `make build`)")
	flag.StringVar(&c.ref, "ref", os.Getenv("REF"), "the reference's src directory (holding bridge.py); empty: ucs only")
	flag.StringVar(&c.python, "python", "python3", "the Python interpreter for the reference")
	flag.IntVar(&c.runs, "runs", 20, "runs of each command at each size")
	flag.IntVar(&c.sets, "sets", 1, "measure every command in this many sets of -runs runs; with -ref, also print the ratio of each set")
	flag.IntVar(&c.block, "block", 10, "runs of one implementation in a row, after a warm-up run; 1: alternate every call, no warm-up")
	flag.IntVar(&c.refMax, "refmax", 10000, "measure the reference only at sizes with at most this many methodology entries")
	flag.StringVar(&sizes, "sizes", "fresh,1k,10k", "comma-separated sizes: fresh, 1k, 10k, 50k, 100k")
	flag.BoolVar(&c.growth, "growth", false, "also print report and consult time against the entry count")
	flag.BoolVar(&c.keep, "keep", false, "keep the workspaces (their directory is printed)")
	flag.BoolVar(&c.verbose, "v", false, "log progress on stderr")
	flag.Parse()
	for _, name := range strings.Split(sizes, ",") {
		i := slices.IndexFunc(knownSizes, func(s size) bool { return s.name == strings.TrimSpace(name) })
		if i < 0 {
			fail(fmt.Errorf("unknown size %q (fresh, 1k, 10k, 50k, 100k)", name))
		}
		c.sizes = append(c.sizes, knownSizes[i])
	}
	if c.runs < 1 || c.block < 1 || c.sets < 1 {
		fail(fmt.Errorf("-runs, -block and -sets must be at least 1"))
	}
	var err error
	if c.ucs, err = filepath.Abs(c.ucs); err != nil {
		fail(err)
	}
	if _, err := os.Stat(c.ucs); err != nil {
		fail(fmt.Errorf("%v (run `make build`)", err))
	}
	if c.ref != "" {
		if _, err := os.Stat(filepath.Join(c.ref, "bridge.py")); err != nil {
			fail(fmt.Errorf("-ref: %v", err))
		}
		if _, err := exec.LookPath(c.python); err != nil {
			fail(fmt.Errorf("-ref needs %s: %v", c.python, err))
		}
	}
	if err := run(c, os.Stdout); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchcalls:", err)
	os.Exit(1)
}

// A result is the measurements of one command at one size by one
// implementation.
type result struct {
	ms    []float64
	maxKB int64
}

func (r result) median() float64 {
	s := slices.Clone(r.ms)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (r result) mib() float64 { return float64(r.maxKB) / 1024 }

type key struct{ cmd, size, impl string }

func run(c config, w io.Writer) error {
	root, err := os.MkdirTemp("", "ucs-benchcalls-")
	if err != nil {
		return err
	}
	if c.keep {
		fmt.Fprintln(os.Stderr, "benchcalls: workspaces in", root)
	} else {
		defer os.RemoveAll(root)
	}
	if c.runner, err = startRunner(root); err != nil {
		return err
	}
	defer c.runner.stop()
	sets := make([]map[key]result, c.sets)
	for i := range sets {
		sets[i] = map[key]result{}
	}
	start := time.Now()
	for _, sz := range c.sizes {
		impls := []*impl{{name: "ucs", c: c, bin: c.ucs}}
		if c.ref != "" && sz.methodology <= c.refMax {
			impls = append(impls, &impl{name: "ref", c: c, ref: true})
		}
		for _, im := range impls {
			im.ws = filepath.Join(root, sz.name+"-"+im.name)
			c.logf("%s: building the %s workspace", sz.name, im.name)
			if err := im.build(sz); err != nil {
				return fmt.Errorf("%s, %s: %w", sz.name, im.name, err)
			}
		}
		for set, results := range sets {
			for _, cmd := range commands {
				c.logf("%s: %s ×%d (set %d of %d)", sz.name, cmd, c.runs, set+1, c.sets)
				call := func(im *impl, i int) (float64, int64, error) { return im.call(cmd, set*c.runs+i, root) }
				if err := measure(c, cmd, sz, impls, call, results); err != nil {
					return err
				}
			}
		}
		if !c.keep {
			for _, im := range impls {
				os.RemoveAll(im.ws)
			}
		}
	}
	c.logf("done in %s", time.Since(start).Round(time.Second))
	results := pool(sets)
	printTable(w, c, results)
	if c.sets > 1 && c.ref != "" {
		printSets(w, c, sets)
	}
	if c.growth {
		printGrowth(w, c, results)
	}
	return nil
}

// measure runs cmd c.runs times on each implementation, in blocks of
// c.block runs of one implementation, alternating implementations block by
// block so both see the same machine. A block of more than one run starts
// with an unmeasured warm-up call (its memory counts), as hyperfine's
// --warmup does: each implementation is timed in its steady state. With
// blocks of one there is no warm-up and every call follows one of the
// other implementation, whose memory traffic leaves the caches cold.
func measure(c config, cmd string, sz size, impls []*impl, call func(*impl, int) (float64, int64, error), results map[key]result) error {
	for done := 0; done < c.runs; done += c.block {
		n := min(c.block, c.runs-done)
		for _, im := range impls {
			k := key{cmd, sz.name, im.name}
			r := results[k]
			run := func(i int, timed bool) error {
				ms, kb, err := call(im, i)
				if err != nil {
					return fmt.Errorf("%s at %s, %s run %d: %w", cmd, sz.name, im.name, i+1, err)
				}
				if timed {
					r.ms = append(r.ms, ms)
				}
				r.maxKB = max(r.maxKB, kb)
				return nil
			}
			if c.block > 1 {
				if err := run(max(done-1, 0), false); err != nil { // the warm-up
					return err
				}
			}
			for i := done; i < done+n; i++ {
				if err := run(i, true); err != nil {
					return err
				}
			}
			results[k] = r
		}
	}
	return nil
}

// pool merges the sets' results: every run's time, the highest peak.
func pool(sets []map[key]result) map[key]result {
	out := map[key]result{}
	for _, set := range sets {
		for k, r := range set {
			p := out[k]
			p.ms = append(p.ms, r.ms...)
			p.maxKB = max(p.maxKB, r.maxKB)
			out[k] = p
		}
	}
	return out
}

func (c config) logf(format string, args ...any) {
	if c.verbose {
		fmt.Fprintf(os.Stderr, "benchcalls: "+format+"\n", args...)
	}
}

// An impl is ucs or the reference, with its workspace and where its cursor
// stands (reports follow the graph's edges from it).
type impl struct {
	name   string
	c      config
	bin    string
	ref    bool
	ws     string
	cursor string
	rng    *rand.Rand
	size   size
}

// exec runs one call through the runner.
func (im *impl) exec(argv []string, stdin []byte) ([]byte, float64, int64, error) {
	return im.c.runner.call(argv, stdin)
}

func (im *impl) argv(ws string, args ...string) []string {
	if im.ref {
		return append([]string{im.c.python, filepath.Join(im.c.ref, "bridge.py"), "--workspace", ws}, args...)
	}
	return append([]string{im.bin, "--workspace", ws}, args...)
}

func head(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "..."
	}
	return string(b)
}

// build creates the workspace: init, then the size's knowledge imported in
// parts of at most importPart methodology entries.
func (im *impl) build(sz size) error {
	im.size = sz
	im.rng = rand.New(rand.NewPCG(7, 7))
	if _, _, _, err := im.exec(im.argv(im.ws, "init"), nil); err != nil {
		return err
	}
	parts := max(1, (sz.methodology+importPart-1)/importPart)
	if sz.methodology+sz.judg+sz.dead > 0 {
		for p := range parts {
			pkg := knowledgegen.Bytes(knowledgegen.Options{Seed: 1, Part: p, Parts: parts,
				Methodology: sz.methodology, Judgment: sz.judg, DeadEnds: sz.dead})
			if _, _, _, err := im.exec(im.argv(im.ws, "import"), pkg); err != nil {
				return err
			}
		}
	}
	// A workspace in use: the journal's last event is not the import's.
	if _, _, _, err := im.exec(im.argv(im.ws, "consult", "--context", "warm up"), nil); err != nil {
		return err
	}
	out, _, _, err := im.exec(im.argv(im.ws, "status"), nil)
	if err != nil {
		return err
	}
	var st struct{ Cursor string }
	if err := json.Unmarshal(out, &st); err != nil || st.Cursor == "" {
		return fmt.Errorf("status gives no cursor: %s", head(out))
	}
	im.cursor = st.Cursor
	return nil
}

var consultContexts = []string{
	"research competitor pricing on the web",
	"debug the flaky ci pipeline timeout and fix the regression",
	"write documentation for the new api release",
	"deploy the hotfix and monitor the dashboard for errors",
}

var reflections = []struct {
	text     string
	caps     []string
	keywords []string
}{
	{"Fetch whole pages; search snippets truncate prices.", []string{"web_search", "web_fetch"}, []string{"pricing", "research"}},
	{"Run the failing test alone before touching the code: flaky tests hide ordering bugs.", []string{"exec", "read"}, []string{"test", "debug", "flaky"}},
	{"Write the docs from the public API, not from the implementation.", []string{"write", "read"}, []string{"documentation", "api"}},
	{"Deploy behind a feature flag and watch the error rate for ten minutes.", []string{"exec", "process"}, []string{"deploy", "monitor"}},
}

// call runs command cmd for run i and returns its wall time and peak RSS.
func (im *impl) call(cmd string, i int, root string) (float64, int64, error) {
	var args []string
	var stdin []byte
	ws := im.ws
	switch cmd {
	case "init":
		// A fresh init each run: an empty directory, or for a populated
		// size a copy of the workspace reinitialized with --force.
		ws = filepath.Join(root, fmt.Sprintf("init-%s-%s-%d", im.size.name, im.name, i))
		args = []string{"init"}
		if im.size.methodology > 0 {
			if err := copyTree(im.ws, ws); err != nil {
				return 0, 0, err
			}
			args = append(args, "--force")
		}
		defer os.RemoveAll(ws)
	case "consult":
		args = []string{"consult", "--context", consultContexts[i%len(consultContexts)]}
	case "report":
		args = []string{"report"}
		stdin = im.reportInput(i)
	case "reflect":
		r := reflections[i%len(reflections)]
		stdin, _ = json.Marshal(map[string]any{"type": "post_task", "text": fmt.Sprintf("%s (run %d)", r.text, i),
			"capabilities": r.caps, "keywords": r.keywords})
		args = []string{"reflect"}
	default:
		args = []string{cmd}
	}
	out, ms, kb, err := im.exec(im.argv(ws, args...), stdin)
	if err != nil {
		return 0, 0, err
	}
	if cmd == "consult" {
		consultBytes[im.size.name+" "+im.name] = max(consultBytes[im.size.name+" "+im.name], len(out))
	}
	if cmd == "report" {
		var r struct{ Cursor string }
		if err := json.Unmarshal(out, &r); err != nil || r.Cursor == "" {
			return 0, 0, fmt.Errorf("report gives no cursor: %s", head(out))
		}
		im.cursor = r.Cursor
	}
	return ms, kb, nil
}

var graph *torusfield.Graph

// reportInput reports an action along an edge leaving the cursor, as an
// agent following the advice would; every fourth is notable and carries a
// reasoning trace (a judgment node).
func (im *impl) reportInput(i int) []byte {
	if graph == nil {
		graph = torusfield.New(torusfield.DefaultManifest(), torusfield.Options{}).Graph
	}
	out := graph.Out(im.cursor)
	action := "read"
	if len(out) > 0 {
		action = graph.Edges[out[im.rng.IntN(len(out))]].Dst
	}
	in := map[string]any{"action": action, "outcome": "done: step " + fmt.Sprint(i),
		"success": []string{"success", "success", "partial", "failure"}[im.rng.IntN(4)], "significance": "routine"}
	if i%4 == 3 {
		in["significance"] = "notable"
		in["context"] = "benchmark step " + fmt.Sprint(i)
		in["reasoning_trace"] = map[string]any{"constraints": "time", "alternatives": "a shorter path",
			"decisive_factor": "the edge had paid off before"}
	}
	b, _ := json.Marshal(in)
	return b
}

// copyTree copies a directory's regular files (the lock file included).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

func printTable(w io.Writer, c config, results map[key]result) {
	hasRef := c.ref != ""
	fmt.Fprintf(w, "Median wall time of %d runs per command and size (whole process, fork/exec to exit) and peak RSS.\n", c.runs*c.sets)
	if c.ref != "" && c.block == 1 {
		fmt.Fprintln(w, "Calls alternate with the reference's one by one, with no warm-up.")
	} else if c.ref != "" {
		fmt.Fprintf(w, "Blocks of %d runs, each after a warm-up call, alternate with the reference's.\n", c.block)
	}
	fmt.Fprintln(w, "Sizes: methodology/judgment/dead-end entries.")
	fmt.Fprintln(w)
	if hasRef {
		fmt.Fprintln(w, "| command | size | ucs ms | ref ms | ref/ucs | ucs MiB | ref MiB |")
		fmt.Fprintln(w, "| --- | --- | ---: | ---: | ---: | ---: | ---: |")
	} else {
		fmt.Fprintln(w, "| command | size | ucs ms | ucs MiB |")
		fmt.Fprintln(w, "| --- | --- | ---: | ---: |")
	}
	for _, cmd := range commands {
		for _, sz := range c.sizes {
			u, ok := results[key{cmd, sz.name, "ucs"}]
			if !ok {
				continue
			}
			label := fmt.Sprintf("%s (%d/%d/%d)", sz.name, sz.methodology, sz.judg, sz.dead)
			if sz.methodology == 0 {
				label = "fresh"
			}
			if !hasRef {
				fmt.Fprintf(w, "| %s | %s | %.2f | %.1f |\n", cmd, label, u.median(), u.mib())
				continue
			}
			r, ok := results[key{cmd, sz.name, "ref"}]
			if !ok {
				fmt.Fprintf(w, "| %s | %s | %.2f | — | — | %.1f | — |\n", cmd, label, u.median(), u.mib())
				continue
			}
			fmt.Fprintf(w, "| %s | %s | %.2f | %.1f | %.0f× | %.1f | %.1f |\n", cmd, label, u.median(), r.median(),
				r.median()/u.median(), u.mib(), r.mib())
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "init at a populated size is `init --force` on a copy of the workspace.")
	fmt.Fprintln(w)
	fmt.Fprint(w, "The largest consult answer, in bytes (indented JSON):")
	for _, sz := range c.sizes {
		if n, ok := consultBytes[sz.name+" ucs"]; ok {
			fmt.Fprintf(w, " %s %d;", sz.name, n)
		}
	}
	fmt.Fprintln(w)
}

// printSets prints, for each command and size measured on both, the range
// of the sets' medians and of their ratios, and the median ratio: on a
// shared machine one set's ratio can move by a third.
func printSets(w io.Writer, c config, sets []map[key]result) {
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Over %d sets of %d runs: the range of each set's median, and of each set's ratio; the median ratio.\n", len(sets), c.runs)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| command | size | ucs ms | ref ms | ref/ucs | median |")
	fmt.Fprintln(w, "| --- | --- | ---: | ---: | ---: | ---: |")
	for _, cmd := range commands {
		for _, sz := range c.sizes {
			var us, rs, ratios []float64
			for _, set := range sets {
				u, uok := set[key{cmd, sz.name, "ucs"}]
				r, rok := set[key{cmd, sz.name, "ref"}]
				if !uok || !rok {
					continue
				}
				us, rs = append(us, u.median()), append(rs, r.median())
				ratios = append(ratios, r.median()/u.median())
			}
			if len(ratios) == 0 {
				continue
			}
			slices.Sort(us)
			slices.Sort(rs)
			slices.Sort(ratios)
			fmt.Fprintf(w, "| %s | %s | %.2f–%.2f | %.0f–%.0f | %.0f–%.0f× | %.0f× |\n", cmd, sz.name,
				us[0], us[len(us)-1], rs[0], rs[len(rs)-1], ratios[0], ratios[len(ratios)-1], result{ms: ratios}.median())
		}
	}
}

func printGrowth(w io.Writer, c config, results map[key]result) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "How ucs's cost grows with the knowledge (median ms; × is the time over the fresh workspace's):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| methodology entries | report ms | × | consult ms | × |")
	fmt.Fprintln(w, "| ---: | ---: | ---: | ---: | ---: |")
	sizes := slices.Clone(c.sizes)
	slices.SortFunc(sizes, func(a, b size) int { return cmp.Compare(a.methodology, b.methodology) })
	var rep0, con0 float64
	for _, sz := range sizes {
		rep := results[key{"report", sz.name, "ucs"}].median()
		con := results[key{"consult", sz.name, "ucs"}].median()
		if sz.methodology == 0 {
			rep0, con0 = rep, con
		}
		ratio := func(x, base float64) string {
			if base == 0 {
				return "—"
			}
			return fmt.Sprintf("%.2f", x/base)
		}
		fmt.Fprintf(w, "| %d | %.2f | %s | %.2f | %s |\n", sz.methodology, rep, ratio(rep, rep0), con, ratio(con, con0))
	}
}
