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
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
	"github.com/unified-cognitive-substrate/ucs/internal/pgstore"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// BenchmarkRunReport is a long-lived server's report on a store (what
// ucs-mcp --store does per tool call, without MCP): one transaction on a
// warm mirror over a kept connection, as the cluster's superuser (which
// row-level security passes) and as an agent's own role (which it
// filters). Profile it with
//
//	UCS_REQUIRE_POSTGRES=1 go test -run X -bench RunReport -cpuprofile cpu.out ./internal/pgstore/
//
// Each call decodes the mirror's state file, as ucs-mcp did before it kept
// a bridge.Warm; BenchmarkRunReportWarm is ucs-mcp's way now.
func BenchmarkRunReport(b *testing.B) { benchRunReport(b, false) }

// BenchmarkRunReportWarm is BenchmarkRunReport with the calls sharing a
// bridge.Warm, as ucs-mcp's do (mcpserver.NewWith): a call whose mirror
// holds the state file the previous call wrote does not decode it.
func BenchmarkRunReportWarm(b *testing.B) { benchRunReport(b, true) }

func benchRunReport(b *testing.B, warm bool) {
	b.Run("superuser", func(b *testing.B) { runReports(b, pgtest.Database(b), warm) })
	b.Run("agent", func(b *testing.B) {
		db := pgtest.Database(b)
		require.NoError(b, pgstore.MigrateTo(context.Background(), db, pgstore.SchemaVersion))
		_, url := pgtest.Role(b, db, "agent", "ucs_agent")
		runReports(b, url, warm)
	})
}

// runReports measures b.N reports on workspace a of the store at url,
// through calls that share a bridge.Warm when warm says so.
func runReports(b *testing.B, url string, warm bool) {
	pgstore.CheckWrites(false) // the calls as they run outside the tests
	defer pgstore.CheckWrites(true)
	ctx := context.Background()
	st, err := pgstore.Open(ctx, url, pgstore.Options{Workspace: "a", Cache: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	opts := bridge.Options{Now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	if warm {
		opts.Warm = bridge.NewWarm()
	}
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
	wal := func() (n int64) {
		if err := conn.QueryRow(ctx, `SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn`).Scan(&n); err != nil {
			b.Fatal(err)
		}
		return n
	}
	pg0, self0, wal0 := cpuOf(backend), selfCPU(), wal()
	b.ResetTimer()
	for range b.N {
		do("report", in)
	}
	b.StopTimer()
	// CPU time, which other work on the machine moves less than elapsed
	// time: this process's (the server's share) and its backend's; and
	// the write-ahead log the reports wrote (the cluster's, which nothing
	// else writes meanwhile but the benchmark's other databases: none).
	b.ReportMetric(float64((selfCPU()-self0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64((cpuOf(backend)-pg0).Microseconds())/1000/float64(b.N), "pg-cpu-ms/op")
	b.ReportMetric(float64(wal()-wal0)/float64(b.N), "wal-B/op")
	if warm {
		hits, _ := opts.Warm.Stats()
		b.ReportMetric(float64(hits)/float64(b.N), "warm-hits/op") // each report but the first
	}
}

// cpuOf is the CPU time process pid has used (Linux's /proc; 0 elsewhere):
// the scheduler's count in nanoseconds where the kernel keeps one (a
// connection's backend lives a few milliseconds), else clock ticks.
func cpuOf(pid int) time.Duration {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid)); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				return time.Duration(ns)
			}
		}
	}
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

// BenchmarkConnectionReport is a process per call's report, as an agent's
// role: a connection a report (Open, one call, Close) on a warm mirror. Its
// pg-cpu-ms/op is each connection's backend, its start included (which a
// pooler saves).
func BenchmarkConnectionReport(b *testing.B) {
	pgstore.CheckWrites(false)
	defer pgstore.CheckWrites(true)
	ctx := context.Background()
	db := pgtest.Database(b)
	require.NoError(b, pgstore.MigrateTo(ctx, db, pgstore.SchemaVersion))
	_, url := pgtest.Role(b, db, "agent", "ucs_agent")
	cache := b.TempDir()
	opts := bridge.Options{Now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	conn, err := pgx.Connect(ctx, db)
	require.NoError(b, err)
	defer conn.Close(ctx)
	in := pyjson.Obj(pyjson.KV("action", "read"), pyjson.KV("success", "success"), pyjson.KV("context", "read the brief"))
	var pg time.Duration
	call := func(op string, in pyjson.Value) {
		st, err := pgstore.Open(ctx, url, pgstore.Options{Workspace: "a", Cache: cache})
		require.NoError(b, err)
		defer st.Close()
		var backend int
		require.NoError(b, conn.QueryRow(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&backend))
		err = st.Run(ctx, op, opts, func(br *bridge.Bridge) error {
			_, err := br.Do(bridge.Call{Op: op, Args: pyjson.Obj(), Input: in})
			return err
		})
		require.NoError(b, err)
		pg += cpuOf(backend)
	}
	call("init", pyjson.NullValue())
	pg = 0
	b.ResetTimer()
	for range b.N {
		call("report", in)
	}
	b.StopTimer()
	b.ReportMetric(float64(pg.Microseconds())/1000/float64(b.N), "pg-cpu-ms/op")
}
