package pgstore_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
)

// The store through PgBouncer in transaction mode, the pooler for many
// short-lived processes: a server connection is a call's only for the
// length of a transaction, so a call keeps no session state.

// pooledEnv is a store's environment reached through the pooler; direct
// is the same database without it.
func pooledEnv(t *testing.T) (e *env, direct string) {
	pooled, direct := pgtest.PooledDatabase(t)
	e = newEnv(t)
	e.url = pooled
	return e, direct
}

// A session of calls through the pooler gives the answers a directory
// gives.
func TestSessionThroughAPooler(t *testing.T) {
	e, _ := pooledEnv(t)
	sameAnswers(t, e)
}

// 16 processes × 50 reports on one workspace through the pooler: all
// counted, check clean, verify passes.
func TestConcurrentReportsThroughAPooler(t *testing.T) {
	if testing.Short() {
		t.Skip("800 processes")
	}
	e, _ := pooledEnv(t)
	concurrentReports(t, e)
}

// The first calls on a new store migrate its schema, 8 at once, through
// the pooler: each succeeds, and no advisory lock is left held on any of
// the server's connections. (Regression: migrations took turns on a
// session's advisory lock, which through a pooler in transaction mode
// could be released on another connection than the one that took it,
// leaving it held, or wait for ever.)
func TestMigrationsThroughAPooler(t *testing.T) {
	e, direct := pooledEnv(t)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for a := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "--store", e.url, "--workspace-name", fmt.Sprintf("agent%d", a), "--compact", "init")
			cmd.Env = append(os.Environ(), append(e.vars, "UCS_TEST_AS_UCS=1", "UCS_STORE_CACHE="+e.cache)...)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				errs <- fmt.Sprintf("agent%d: %v: %s", a, err, out.String())
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.Equal(t, int64(0), rowCount(t, direct, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'`), "no advisory lock held")
	assert.Equal(t, int64(8), rowCount(t, direct, `SELECT count(*) FROM ucs_workspaces`))
	for a := range 8 {
		name := fmt.Sprintf("agent%d", a)
		e.must(name, `{"action": "read", "success": "success"}`, "report")
		assert.Equal(t, int64(1), gjson.Get(e.must(name, "", "status"), "reports_total").Int())
	}
	assert.True(t, strings.Contains(e.url, fmt.Sprint(pgtest.PoolerPort)))
}
