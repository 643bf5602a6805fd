// Command benchmcp measures the MCP server (cmd/ucs-mcp) as a client uses
// it: per tool call over stdio against the same operation in process
// (bridge.Do), and the server's memory over many calls.
//
//	go run ./internal/bench/cmd/benchmcp -server bin/ucs-mcp -runs 500 -calls 100000
//
// Latency: for status, coverage and report, -runs calls each, alternating
// the server and bridge.Do on a workspace of its own (both start fresh), and
// the median of each and of their difference. Memory: the server's resident
// set (VmRSS of /proc/PID/status) after 1,000 calls and after -calls calls
// of a mix that leaves the workspace as it is (status, coverage_check, and
// a report retried with its request_id, which is replayed), so any growth
// is the server's own.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

func main() {
	server := flag.String("server", "bin/ucs-mcp", "the ucs-mcp binary")
	runs := flag.Int("runs", 500, "calls of each operation for the latency")
	calls := flag.Int("calls", 100000, "calls for the memory measure")
	flag.Parse()
	if err := run(*server, *runs, *calls); err != nil {
		fmt.Fprintln(os.Stderr, "benchmcp:", err)
		os.Exit(1)
	}
}

// op is one measured operation: a tool and the call bridge.Do runs for it.
type op struct {
	tool, args string
	call       bridge.Call
}

var ops = []op{
	{"status", `{}`, bridge.Call{Op: "status"}},
	{"coverage", `{"context": "research competitor pricing"}`,
		bridge.Call{Op: "coverage", Args: pyjson.Obj(pyjson.KV("context", "research competitor pricing"))}},
	{"report", `{"action": "read", "outcome": "ok", "success": "success"}`, bridge.Call{Op: "report",
		Input: pyjson.Obj(pyjson.KV("action", "read"), pyjson.KV("outcome", "ok"), pyjson.KV("success", "success"))}},
}

func run(server string, runs, calls int) error {
	dir, err := os.MkdirTemp("", "benchmcp")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	wsServer, wsLocal := filepath.Join(dir, "server"), filepath.Join(dir, "local")
	local := bridge.New(bridge.Options{Workspace: wsLocal})
	for _, b := range []*bridge.Bridge{local, bridge.New(bridge.Options{Workspace: wsServer})} {
		if _, err := b.Do(bridge.Call{Op: "init"}); err != nil {
			return err
		}
	}
	cmd := exec.Command(server, "--workspace", wsServer)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "benchmcp", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	callTool := func(name, args string) error {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err == nil && res.IsError {
			err = fmt.Errorf("%s: %s", name, res.Content[0].(*mcp.TextContent).Text)
		}
		return err
	}

	fmt.Printf("ucs-mcp: %s, %d calls each, alternating with bridge.Do in this process\n\n", server, runs)
	fmt.Println("| tool | over stdio (median) | bridge.Do (median) | difference (median) |")
	fmt.Println("| --- | --- | --- | --- |")
	for _, o := range ops {
		var remote, inproc, diff []float64
		for range runs {
			t0 := time.Now()
			if err := callTool(o.tool, o.args); err != nil {
				return err
			}
			r := ms(time.Since(t0))
			t0 = time.Now()
			if _, err := local.Do(o.call); err != nil {
				return err
			}
			l := ms(time.Since(t0))
			remote, inproc, diff = append(remote, r), append(inproc, l), append(diff, r-l)
		}
		fmt.Printf("| %s | %.3f ms | %.3f ms | %+.3f ms |\n", o.tool, median(remote), median(inproc), median(diff))
	}

	mix := []struct{ tool, args string }{
		{"status", `{}`},
		{"coverage_check", `{"context": "research competitor pricing"}`},
		{"report", `{"action": "read", "outcome": "ok", "success": "success", "request_id": "bench-replayed"}`},
	}
	fmt.Printf("\nmemory of the server over %d calls (status, coverage_check, a replayed report):\n\n", calls)
	fmt.Println("| calls | VmRSS | VmHWM | elapsed |")
	fmt.Println("| --- | --- | --- | --- |")
	start := time.Now()
	for i := 1; i <= calls; i++ {
		m := mix[i%len(mix)]
		if err := callTool(m.tool, m.args); err != nil {
			return err
		}
		if i == 1000 || i == 10000 || i == calls || i%50000 == 0 {
			rss, hwm := memory(cmd.Process.Pid)
			fmt.Printf("| %d | %s | %s | %.1f s |\n", i, rss, hwm, time.Since(start).Seconds())
		}
	}
	return nil
}

// memory reads a process's resident set and its peak.
func memory(pid int) (rss, hwm string) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return "?", "?"
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		k, v, _ := strings.Cut(line, ":")
		switch k {
		case "VmRSS":
			rss = strings.TrimSpace(v)
		case "VmHWM":
			hwm = strings.TrimSpace(v)
		}
	}
	return rss, hwm
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
