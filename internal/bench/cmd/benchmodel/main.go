// Command benchmodel measures what a learned model costs every call: the
// same manifest (-tools tools, every one connected to every other), one
// workspace fresh and one that has learned -n outcomes (reports with
// 8-word contexts drawn from a seeded vocabulary of -words made-up words,
// a consult before one in -consult-every), then consult, report and
// status, one process per call, on both and on a do-nothing program,
// alternating call by call so all three see the same machine. It prints
// the median of -runs calls of each, their ratios, the state file's size
// and its learned member's, the distinct features the reports touched and
// the weights the model holds, and the peak RSS of one learned call of
// each (GNU time's %M, where /usr/bin/time is installed).
//
//	go run ./internal/bench/cmd/benchmodel -ucs bin/ucs -hello bin/hello-go
//
// The workspaces are built in process through bridge.Do, the clock a
// second apart per call, without fsync: a build of 6,000 outcomes takes
// minutes, not the hour its calls would take one process each.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

type config struct {
	ucs, hello string
	runs       int
	plan       plan
	keep       bool
	verbose    bool
}

func main() {
	c := config{plan: plan{}}
	flag.StringVar(&c.ucs, "ucs", "bin/ucs", "the ucs binary (build it with `make build`)")
	flag.StringVar(&c.hello, "hello", "bin/hello-go", "a do-nothing program (make bench-model builds one)")
	flag.IntVar(&c.runs, "runs", 200, "calls of each command on each workspace")
	flag.IntVar(&c.plan.tools, "tools", 40, "tools in the manifest")
	flag.IntVar(&c.plan.reports, "n", 6000, "outcomes the learned workspace is taught")
	flag.StringVar(&c.plan.model, "model", advice.DefaultModel, "the learning model of both workspaces: "+strings.Join(advice.Models(), ", "))
	flag.IntVar(&c.plan.words, "words", 3000, "words the contexts are drawn from")
	flag.IntVar(&c.plan.consultEvery, "consult-every", 3, "a consult before one report in so many (0: none)")
	flag.BoolVar(&c.keep, "keep", false, "keep the workspaces (their directory is printed)")
	flag.BoolVar(&c.verbose, "v", false, "log progress on stderr")
	flag.Parse()
	if c.runs < 1 || c.plan.tools < 2 || c.plan.reports < 0 || c.plan.words < 8 {
		fail(fmt.Errorf("-runs must be at least 1, -tools 2, -words 8, and -n not negative"))
	}
	if !slices.Contains(advice.Models(), c.plan.model) {
		fail(fmt.Errorf("-model: one of %s", strings.Join(advice.Models(), ", ")))
	}
	for _, p := range []*string{&c.ucs, &c.hello} {
		abs, err := filepath.Abs(*p)
		if err == nil {
			_, err = os.Stat(abs)
		}
		if err != nil {
			fail(fmt.Errorf("%v (run `make bench-model`)", err))
		}
		*p = abs
	}
	if err := run(c, os.Stdout); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchmodel:", err)
	os.Exit(1)
}

func (c config) logf(format string, args ...any) {
	if c.verbose {
		fmt.Fprintf(os.Stderr, "benchmodel: "+format+"\n", args...)
	}
}

// A target is a workspace measured, or the do-nothing program.
type target struct {
	name   string
	ws     string
	cursor string
	b      built
	ms     map[string][]float64
}

func run(c config, w io.Writer) error {
	root, err := os.MkdirTemp("", "ucs-benchmodel-")
	if err != nil {
		return err
	}
	if c.keep {
		fmt.Fprintln(os.Stderr, "benchmodel: workspaces in", root)
	} else {
		defer os.RemoveAll(root)
	}
	fresh := &target{name: "fresh", ws: filepath.Join(root, "fresh"), ms: map[string][]float64{}}
	learned := &target{name: "learned", ws: filepath.Join(root, "learned"), ms: map[string][]float64{}}
	hello := &target{name: "do-nothing", ms: map[string][]float64{}}
	start := time.Now()
	fp := c.plan
	fp.reports = 0
	if fresh.b, err = build(fresh.ws, fp); err != nil {
		return fmt.Errorf("the fresh workspace: %w", err)
	}
	c.logf("building the learned workspace: %d outcomes, model %s", c.plan.reports, c.plan.model)
	if learned.b, err = build(learned.ws, c.plan); err != nil {
		return fmt.Errorf("the learned workspace: %w", err)
	}
	c.logf("built in %s", time.Since(start).Round(time.Second))
	for _, t := range []*target{fresh, learned} {
		if t.cursor, err = cursorOf(c, t.ws); err != nil {
			return err
		}
	}
	// The calls' clock: after the build's last call, the same for every call.
	now := buildStart.Add(time.Duration(learned.b.events+3600) * time.Second).Format(time.RFC3339)
	env := append(os.Environ(), "UCS_NOW="+now, "UCS_TIMINGS=")
	names := tools(c.plan.tools)
	words := vocabulary(c.plan.words)
	rng := rand.New(rand.NewPCG(200, 27))
	calls := []string{"consult", "report", "status"}
	for _, call := range calls {
		c.logf("%s ×%d", call, c.runs)
		for range c.runs {
			ctx := make([]string, 8)
			for j := range ctx {
				ctx[j] = words[rng.IntN(len(words))]
			}
			context := strings.Join(ctx, " ")
			pick := rng.IntN(len(names))
			success := []string{"success", "failure"}[rng.IntN(2)]
			for _, t := range []*target{fresh, learned, hello} {
				argv, stdin := []string{c.hello}, []byte(nil)
				if t != hello {
					argv, stdin = t.argv(c, call, context, names, pick, success)
				}
				out, ms, err := timeCall(argv, stdin, env)
				if err != nil {
					return fmt.Errorf("%s on %s: %w", call, t.name, err)
				}
				t.ms[call] = append(t.ms[call], ms)
				if call == "report" && t != hello {
					// v5's cursor is "" at a task's start (after a failed first step).
					if cur := gjson.GetBytes(out, "cursor"); !cur.Exists() {
						return fmt.Errorf("report on %s gives no cursor: %.300s", t.name, out)
					} else {
						t.cursor = cur.String()
					}
				}
			}
		}
	}
	// Peak memory, one call of each on the learned workspace, where GNU
	// time measures it (ru_maxrss of a child Go starts straight from this
	// process would include this process's own peak).
	rss := map[string]string{}
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		for _, call := range calls {
			argv, stdin := learned.argv(c, call, strings.Join(words[:8], " "), names, 0, "success")
			kb, err := peakKB(argv, stdin, env)
			if err != nil {
				return fmt.Errorf("%s's peak memory: %w", call, err)
			}
			rss[call] = fmt.Sprintf("%.1f", float64(kb)/1024)
		}
	}
	c.logf("done in %s", time.Since(start).Round(time.Second))
	printTable(w, c, calls, fresh, learned, hello, rss)
	return nil
}

// argv is the command line and stdin of one call on the target's workspace;
// a report's action is names[pick], or the next name when that is where
// the cursor stands.
func (t *target) argv(c config, call, context string, names []string, pick int, success string) ([]string, []byte) {
	argv := []string{c.ucs, "--workspace", t.ws, call}
	switch call {
	case "consult":
		return append(argv, "--context", context), nil
	case "report":
		action := names[pick]
		if action == t.cursor {
			action = names[(pick+1)%len(names)]
		}
		in := fmt.Sprintf(`{"action": %q, "success": %q, "context": %q, "outcome": "measured"}`, action, success, context)
		return argv, []byte(in)
	}
	return argv, nil
}

func cursorOf(c config, ws string) (string, error) {
	out, _, err := timeCall([]string{c.ucs, "--workspace", ws, "status"}, nil, nil)
	if err != nil {
		return "", err
	}
	cur := gjson.GetBytes(out, "cursor").String()
	if cur == "" {
		return "", fmt.Errorf("status gives no cursor: %.300s", out)
	}
	return cur, nil
}

// timeCall runs argv, fork/exec to exit, and returns its stdout and wall
// time in ms. A call that fails or answers an error is an error.
func timeCall(argv []string, stdin []byte, env []string) ([]byte, float64, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	ms := float64(time.Since(t0).Nanoseconds()) / 1e6
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %v: %s%.300s", strings.Join(argv[1:], " "), err, errb.Bytes(), out.Bytes())
	}
	if gjson.GetBytes(out.Bytes(), "error").Exists() {
		return nil, 0, fmt.Errorf("%s: %.300s", strings.Join(argv[1:], " "), out.Bytes())
	}
	return out.Bytes(), ms, nil
}

// peakKB runs argv under GNU time and returns its peak RSS in KiB.
func peakKB(argv []string, stdin []byte, env []string) (int64, error) {
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M"}, argv...)...)
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%v: %s", err, errb.Bytes())
	}
	lines := strings.Fields(strings.TrimSpace(errb.String()))
	if len(lines) == 0 {
		return 0, fmt.Errorf("no output from time")
	}
	return strconv.ParseInt(lines[len(lines)-1], 10, 64)
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func printTable(w io.Writer, c config, calls []string, fresh, learned, hello *target, rss map[string]string) {
	p := c.plan
	fmt.Fprintf(w, "Model %s, %d tools (every one connected to every other), %d outcomes learned (%d consults, %d-word vocabulary), medians of %d calls alternating fresh, learned, do-nothing:\n\n",
		p.model, p.tools, learned.b.reports, learned.b.consults, p.words, c.runs)
	fmt.Fprintln(w, "| call | fresh ms | learned ms | learned/fresh | fresh/do-nothing | learned/do-nothing | learned peak MiB |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, call := range calls {
		f, l := median(fresh.ms[call]), median(learned.ms[call])
		h := median(hello.ms[call])
		m := rss[call]
		if m == "" {
			m = "—"
		}
		fmt.Fprintf(w, "| %s | %.2f | %.2f | %.2f× | %.2f× | %.2f× | %s |\n", call, f, l, l/f, f/h, l/h, m)
	}
	var all []float64
	for _, call := range calls {
		all = append(all, hello.ms[call]...)
	}
	fmt.Fprintf(w, "\ndo-nothing program: %.2f ms (median of all its %d calls)\n", median(all), len(all))
	fmt.Fprintf(w, "state file: fresh %s, learned %s; its learned member (\"learn\"): fresh %s, learned %s\n",
		kib(fresh.b.stateBytes), kib(learned.b.stateBytes), kib(fresh.b.learnBytes), kib(learned.b.learnBytes))
	if learned.b.logLines > 0 {
		fmt.Fprintf(w, "record log (the model's evidence, read key by key): learned %s in %d lines, one per call that learned\n",
			kib(learned.b.logBytes), learned.b.logLines)
		return
	}
	if learned.b.learnBytes == 0 {
		fmt.Fprintf(w, "model %s keeps no learned member: no features, no weights\n", p.model)
		return
	}
	fmt.Fprintf(w, "distinct features the reports touched: %d; weights the model holds: %d (at most %d)\n",
		learned.b.features, learned.b.weights, learn.Buckets)
}

func kib(n int) string {
	if n >= 1e6 {
		return fmt.Sprintf("%.2f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f KB", float64(n)/1e3)
}
