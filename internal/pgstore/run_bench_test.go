package pgstore_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
	"github.com/unified-cognitive-substrate/ucs/internal/pgstore"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// BenchmarkRunReport is a long-lived server's report on a store (what
// ucs-mcp --store does per tool call, without MCP): one transaction on a
// warm mirror over a kept connection. Profile it with
//
//	UCS_REQUIRE_POSTGRES=1 go test -run X -bench RunReport -cpuprofile cpu.out ./internal/pgstore/
//
// Each call decodes the mirror's state file, as ucs-mcp did before it kept
// a bridge.Warm; BenchmarkRunReportWarm is ucs-mcp's way now.
func BenchmarkRunReport(b *testing.B) { benchRunReport(b, nil) }

// BenchmarkRunReportWarm is BenchmarkRunReport with the calls sharing a
// bridge.Warm, as ucs-mcp's do (mcpserver.NewWith): a call whose mirror
// holds the state file the previous call wrote does not decode it.
func BenchmarkRunReportWarm(b *testing.B) { benchRunReport(b, bridge.NewWarm()) }

func benchRunReport(b *testing.B, warm *bridge.Warm) {
	pgstore.CheckWrites(false) // the calls as they run outside the tests
	defer pgstore.CheckWrites(true)
	ctx := context.Background()
	url := pgtest.Database(b)
	st, err := pgstore.Open(ctx, url, pgstore.Options{Workspace: "a", Cache: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	opts := bridge.Options{Now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC), Warm: warm}
	do := func(op string, in pyjson.Value) {
		err := st.Run(ctx, op, opts, func(br *bridge.Bridge) error {
			_, err := br.Do(bridge.Call{Op: op, Args: pyjson.Obj(), Input: in})
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	do("init", pyjson.NullValue())
	in := pyjson.Obj(pyjson.KV("action", "read"), pyjson.KV("success", "success"), pyjson.KV("context", "read the brief"))
	// The server's backend: the database's one other connection.
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	var backend int
	if err := conn.QueryRow(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&backend); err != nil {
		b.Fatal(err)
	}
	pg0, self0 := cpuOf(backend), selfCPU()
	b.ResetTimer()
	for range b.N {
		do("report", in)
	}
	b.StopTimer()
	// CPU time, which other work on the machine moves less than elapsed
	// time: this process's (the server's share) and its backend's.
	b.ReportMetric(float64((selfCPU()-self0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64((cpuOf(backend)-pg0).Microseconds())/1000/float64(b.N), "pg-cpu-ms/op")
	if warm != nil {
		hits, _ := warm.Stats()
		b.ReportMetric(float64(hits)/float64(b.N), "warm-hits/op") // each report but the first
	}
}

// cpuOf is the CPU time process pid has used (Linux's /proc; 0 elsewhere).
func cpuOf(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

// selfCPU is the CPU time this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
