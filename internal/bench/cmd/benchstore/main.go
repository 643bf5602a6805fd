// Command benchstore measures ucs on a PostgreSQL store against a
// directory workspace, one process per call as an agent makes them, on a
// throwaway local cluster (Unix socket, default durability):
//
//	go run ./internal/bench/cmd/benchstore -ucs bin/ucs
//
// It prints the median report time on a directory and on the store (ucs
// becomes ucs-pg for the store: both binaries must be built, side by
// side), and how many reports per second agents reporting at once, each on
// its own workspace of the store, sustain in total: a process per call,
// connecting to PostgreSQL directly and through PgBouncer in transaction
// mode (Debian's pgbouncer), then through long-lived MCP servers. In the
// end each workspace must count every report answered, and check and
// verify clean.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
)

func main() {
	ucs := flag.String("ucs", "bin/ucs", "the ucs binary (ucs-pg beside it)")
	runs := flag.Int("runs", 100, "report calls measured on each backend")
	agents := flag.Int("agents", 8, "agents reporting at once")
	seconds := flag.Float64("seconds", 10, "how long the agents report")
	direct := flag.Bool("direct", false, "call ucs-pg directly for the store (no exec from ucs)")
	flag.Parse()
	bin, err := filepath.Abs(*ucs)
	if err != nil {
		fail(err)
	}
	c, err := pgtest.StartCluster()
	if err != nil {
		fail(err)
	}
	defer c.Stop()
	url, err := c.NewDatabase("bench")
	if err != nil {
		fail(err)
	}
	root, err := os.MkdirTemp("", "ucs-benchstore-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(root)
	cache := filepath.Join(root, "cache")
	dir := filepath.Join(root, "ws")
	pgBin := bin
	if *direct {
		pgBin = filepath.Join(filepath.Dir(bin), "ucs-pg")
	}
	call := func(args []string, stdin string) (time.Duration, error) {
		b := bin
		if args[0] == "--store" {
			b = pgBin
		}
		cmd := exec.Command(b, args...)
		cmd.Env = append(os.Environ(), "UCS_STORE_CACHE="+cache)
		cmd.Stdin = strings.NewReader(stdin)
		t := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(t)
		if err != nil {
			return d, fmt.Errorf("ucs %v: %v: %s", args, err, out)
		}
		return d, nil
	}
	onDir := func(args ...string) []string { return append([]string{"--workspace", dir}, args...) }
	onStore := func(name string, args ...string) []string {
		return append([]string{"--store", url, "--workspace-name", name}, args...)
	}
	report := `{"action": "read", "success": "success", "context": "read the brief"}`
	must(call(onDir("init"), ""))
	must(call(onStore("single", "init"), ""))
	// Elapsed time, and the CPU time of the call's processes (ucs, and
	// ucs-pg that it becomes), which other work on the machine moves less.
	var dirT, pgT, dirCPU, pgCPU []float64
	for i := range *runs + 1 {
		c0 := childrenCPU()
		d1, err := call(onDir("report"), report)
		must(d1, err)
		c1 := childrenCPU()
		d2, err := call(onStore("single", "report"), report)
		must(d2, err)
		if i > 0 { // the first of each is a warm-up
			dirT, pgT = append(dirT, ms(d1)), append(pgT, ms(d2))
			dirCPU, pgCPU = append(dirCPU, c1-c0), append(pgCPU, childrenCPU()-c1)
		}
	}
	md, mp := median(dirT), median(pgT)
	fmt.Printf("report, median of %d alternating calls: directory %.2f ms, PostgreSQL store %.2f ms (%.2fx); CPU of the processes: directory %.2f ms, store %.2f ms\n",
		*runs, md, mp, mp/md, median(dirCPU), median(pgCPU))

	for a := range *agents {
		must(call(onStore(fmt.Sprintf("agent%d", a), "init"), ""))
	}
	// What each agent's workspace must count in the end.
	reported := make([]atomic.Int64, *agents)
	var done, failed atomic.Int64
	var wg sync.WaitGroup
	processes := func(on func(name string, args ...string) []string, how string) {
		done.Store(0)
		failed.Store(0)
		children0 := childrenCPU()
		deadline := time.Now().Add(time.Duration(*seconds * float64(time.Second)))
		start := time.Now()
		for a := range *agents {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Now().Before(deadline) {
					if _, err := call(on(fmt.Sprintf("agent%d", a), "report"), report); err != nil {
						failed.Add(1)
						fmt.Fprintln(os.Stderr, err)
						continue
					}
					done.Add(1)
					reported[a].Add(1)
				}
			}()
		}
		wg.Wait()
		el := time.Since(start).Seconds()
		fmt.Printf("%d agents reporting at once, each on its own workspace, a process per call%s: %d reports in %.1f s, %.0f reports/s in total (%d failed); CPU of the ucs processes per report %.2f ms\n",
			*agents, how, done.Load(), el, float64(done.Load())/el, failed.Load(), (childrenCPU()-children0)/float64(done.Load()+failed.Load()))
	}
	processes(onStore, "")
	// The same through PgBouncer in transaction mode: no backend forked
	// per process.
	if poolDir, err := c.Pooler(); err != nil {
		fmt.Printf("through PgBouncer: not measured (%v; on Debian: apt-get install pgbouncer)\n", err)
	} else {
		pooled := pgtest.Pooled(url, poolDir)
		processes(func(name string, args ...string) []string {
			return append([]string{"--store", pooled, "--workspace-name", name}, args...)
		}, " through PgBouncer (transaction mode)")
	}

	// The same through long-lived MCP servers on the store (ucs-mcp
	// --store), one per agent: no process start, no connection per call.
	mcpBin := filepath.Join(filepath.Dir(bin), "ucs-mcp")
	var sessions []*mcp.ClientSession
	var servers []int // their process ids
	for a := range *agents {
		cmd := exec.Command(mcpBin, "--store", url, "--workspace-name", fmt.Sprintf("agent%d", a))
		cmd.Env = append(os.Environ(), "UCS_STORE_CACHE="+cache)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "benchstore", Version: "1"}, nil).
			Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
		if err != nil {
			fail(err)
		}
		defer cs.Close()
		sessions = append(sessions, cs)
		servers = append(servers, cmd.Process.Pid)
	}
	args := map[string]any{"action": "read", "success": "success", "context": "read the brief"}
	var one []float64
	reported[0].Add(int64(*runs))
	for range *runs {
		t := time.Now()
		if res, err := sessions[0].CallTool(context.Background(), &mcp.CallToolParams{Name: "report", Arguments: args}); err != nil || res.IsError {
			fail(fmt.Errorf("report over MCP: %v %v", err, res))
		}
		one = append(one, ms(time.Since(t)))
	}
	fmt.Printf("report through ucs-mcp on the store, median of %d calls: %.2f ms\n", *runs, median(one))
	done.Store(0)
	failed.Store(0)
	// Every server connected (a server connects on its first call), so
	// that their backends are there to measure.
	for a, cs := range sessions {
		if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "report", Arguments: args}); err != nil || res.IsError {
			fail(fmt.Errorf("report over MCP: %v %v", err, res))
		}
		reported[a].Add(1)
	}
	backends, err := clientBackends(url)
	if err != nil {
		fail(err)
	}
	srv0, pg0, self0 := cpuOf(servers...), cpuOf(backends...), cpuOf(os.Getpid())
	deadline := time.Now().Add(time.Duration(*seconds * float64(time.Second)))
	start := time.Now()
	for a, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "report", Arguments: args})
				if err != nil || res.IsError {
					failed.Add(1)
					continue
				}
				done.Add(1)
				reported[a].Add(1)
			}
		}()
	}
	wg.Wait()
	el := time.Since(start).Seconds()
	fmt.Printf("%d agents through ucs-mcp servers on the store: %d reports in %.1f s, %.0f reports/s in total (%d failed)\n",
		*agents, done.Load(), el, float64(done.Load())/el, failed.Load())
	// CPU time, which other work on a shared machine moves less than
	// elapsed time: what each report cost the servers, their PostgreSQL
	// backends (not the server's background processes: WAL writer,
	// checkpointer) and this benchmark's MCP clients.
	n := float64(done.Load())
	srv, pg, self := (cpuOf(servers...)-srv0)/n, (cpuOf(backends...)-pg0)/n, (cpuOf(os.Getpid())-self0)/n
	fmt.Printf("CPU per report through ucs-mcp: servers %.2f ms, PostgreSQL backends %.2f ms, MCP clients %.2f ms: %.0f reports/s at most on %d idle cores\n",
		srv, pg, self, float64(runtime.NumCPU())*1000/(srv+pg+self), runtime.NumCPU())
	for _, cs := range sessions {
		cs.Close()
	}

	// Every report counted, and each workspace checks and verifies clean.
	for a := range *agents {
		name := fmt.Sprintf("agent%d", a)
		out, err := output(bin, cache, onStore(name, "--compact", "status"))
		if err != nil {
			fail(err)
		}
		if got := gjson.Get(out, "reports_total").Int(); got != reported[a].Load() {
			fail(fmt.Errorf("%s counts %d reports, %d were answered", name, got, reported[a].Load()))
		}
		for _, op := range []string{"check", "verify"} {
			if _, err := output(bin, cache, onStore(name, op)); err != nil {
				fail(err)
			}
		}
	}
	fmt.Printf("every report counted in each of the %d workspaces; check and verify clean\n", *agents)
}

// cpuOf is the CPU time, in milliseconds, the processes pids have used
// (Linux's /proc; 0 elsewhere).
func cpuOf(pids ...int) float64 {
	var ticks int64
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		ticks += ut + st
	}
	return float64(ticks) * 1000 / 100 // USER_HZ
}

// childrenCPU is the CPU time, in milliseconds, of this process's children
// that have ended.
func childrenCPU() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

// clientBackends are the process ids of the PostgreSQL backends connected
// to the database at url, but for the one asking.
func clientBackends(url string) ([]int, error) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
		AND backend_type = 'client backend'`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int])
}

// output runs ucs with args and returns its standard output.
func output(bin, cache string, args []string) (string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "UCS_STORE_CACHE="+cache)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("ucs %v: %v: %s", args, err, out)
	}
	return string(out), nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func must(_ time.Duration, err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchstore:", err)
	os.Exit(1)
}
