package pgstore_test

import (
	"bytes"
	"context"
	"net"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
	"github.com/unified-cognitive-substrate/ucs/internal/cli"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pgstore"
	"github.com/unified-cognitive-substrate/ucs/internal/store"
)

// storeCall runs one ucs call on the store at url, in process, and returns
// its exit code, stdout and stderr.
func storeCall(t *testing.T, storeURL string, args ...string) (int, string, string) {
	t.Helper()
	var o, e bytes.Buffer
	env := map[string]string{"UCS_NOW": "2026-11-24T12:00:00Z", "UCS_LOCK_TIMEOUT": "5s", "UCS_STORE_CACHE": t.TempDir()}
	code := cli.Run(append([]string{"--store", storeURL, "--workspace-name", "a"}, args...),
		cli.Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e, Getenv: func(k string) string { return env[k] },
			Store: pgstore.Backend{}})
	return code, o.String(), e.String()
}

// requireUnavailable checks a call's failure is store_unavailable (exit
// 7), naming the store without its password.
func requireUnavailable(t *testing.T, storeURL, password string, args ...string) string {
	t.Helper()
	code, stdout, stderr := storeCall(t, storeURL, args...)
	require.Equal(t, 7, code, "stdout: %s\nstderr: %s", stdout, stderr)
	assert.Equal(t, "store_unavailable", gjson.Get(stdout, "code").String(), stdout)
	assert.Equal(t, pgstore.Redact(storeURL), gjson.Get(stdout, "store").String())
	assert.NotEmpty(t, gjson.Get(stdout, "hint").String())
	if password != "" {
		assert.NotContains(t, stdout, password)
		assert.NotContains(t, stderr, password)
	}
	assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line on stderr: %q", stderr)
	return gjson.Get(stdout, "error").String()
}

// Regression (fixed): a store that refuses the connection exited 1, which
// the contract keeps for ucs's own bugs; it is store_unavailable (exit 7).
// The port is one this test bound and closed on 127.0.0.1: nothing listens.
func TestClosedPortIsUnavailable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	for _, u := range []string{
		"postgres://ucs:s3cret-pw@127.0.0.1:" + itoa(port) + "/ucs?sslmode=disable&connect_timeout=5",
		"postgres://ucs@127.0.0.1:" + itoa(port) + "/ucs?sslmode=disable&password=s3cret-pw",
	} {
		for _, args := range [][]string{{"status"}, {"init"}, {"store", "set", "--fleet", "f"}, {"store", "pull", "--to", t.TempDir() + "/p"}} {
			msg := requireUnavailable(t, u, "s3cret-pw", args...)
			assert.Contains(t, msg, "127.0.0.1:"+itoa(port))
		}
	}
	// exec: the error is JSON on stderr, and the tool does not run.
	code, stdout, stderr := storeCall(t, "postgres://ucs:s3cret-pw@127.0.0.1:"+itoa(port)+"/ucs?sslmode=disable",
		"exec", "--action", "read", "--", "sh", "-c", "echo ran")
	assert.Equal(t, 7, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "store_unavailable", gjson.Get(stderr, "code").String(), stderr)
	assert.NotContains(t, stderr, "s3cret-pw")
}

// A URL the driver cannot parse is the caller's input (exit 2).
func TestInvalidStoreURL(t *testing.T) {
	code, stdout, _ := storeCall(t, "postgres://ucs:s3cret-pw@127.0.0.1:notaport/ucs", "status")
	assert.Equal(t, 2, code, stdout)
	assert.Equal(t, "invalid_store_url", gjson.Get(stdout, "code").String(), stdout)
	assert.NotContains(t, stdout, "s3cret-pw")
}

// A wrong password, a role the server does not know and a database it
// does not hold are the store's unavailability too (on the throwaway
// cluster, which trusts its socket: the test makes one role need a
// password).
func TestRefusedLoginIsUnavailable(t *testing.T) {
	good := pgtest.Database(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, good)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var hba string
	require.NoError(t, conn.QueryRow(ctx, "SHOW hba_file").Scan(&hba))
	_, err = conn.Exec(ctx, "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pwuser') THEN CREATE ROLE pwuser LOGIN SUPERUSER PASSWORD 'right-pw'; END IF; END $$")
	require.NoError(t, err)
	// Only pwuser needs its password; every other role is trusted, as
	// initdb --auth=trust had it.
	_, err = conn.Exec(ctx, "COPY (SELECT 'local all pwuser scram-sha-256' UNION ALL SELECT 'local all all trust') TO '"+hba+"'")
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "SELECT pg_reload_conf()")
	require.NoError(t, err)
	time.Sleep(200 * time.Millisecond) // the postmaster reloads on SIGHUP

	u, err := url.Parse(good)
	require.NoError(t, err)
	with := func(user *url.Userinfo, db string) string {
		v := *u
		v.User = user
		if db != "" {
			v.Path = "/" + db
		}
		return v.String()
	}
	msg := requireUnavailable(t, with(url.UserPassword("pwuser", "wrong-pw"), ""), "wrong-pw", "status")
	assert.Contains(t, msg, "password authentication failed")
	msg = requireUnavailable(t, with(url.User("no_such_role"), ""), "", "status")
	assert.Contains(t, msg, "no_such_role")
	msg = requireUnavailable(t, with(url.User("ucs"), "no_such_database"), "", "status")
	assert.Contains(t, msg, "no_such_database")
	// The right password is let in.
	code, stdout, _ := storeCall(t, with(url.UserPassword("pwuser", "right-pw"), ""), "status")
	assert.Equal(t, 3, code, stdout)
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgres://ucs@/ucs?host=/run/postgresql", "postgres://ucs@/ucs?host=/run/postgresql"},
		{"postgres://ucs:pw@db:5432/ucs", "postgres://ucs:xxxxx@db:5432/ucs"},
		{"postgresql://ucs@db/ucs?password=pw&sslmode=disable", "postgresql://ucs@db/ucs?password=xxxxx&sslmode=disable"},
		{"postgres://ucs@db/ucs?sslpassword=pw", "postgres://ucs@db/ucs?sslpassword=xxxxx"},
		{"postgres://ucs:pw@db:notaport/ucs?password=pw", "postgres://db:notaport/ucs"},
		{"postgres://u:p%zz@db/ucs", "postgres://db/ucs"},
	} {
		got := pgstore.Redact(tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

// ucs-mcp --store: a tool call on a store that refuses the connection is
// the same store_unavailable error (the server keeps running and tries
// again on the next call).
func TestRunnerUnavailable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	opts, err := cli.BridgeOptions(t.TempDir(), func(string) string { return "" })
	require.NoError(t, err)
	run := pgstore.Runner(context.Background(), "postgres://ucs:s3cret-pw@127.0.0.1:"+itoa(port)+"/ucs?sslmode=disable", store.Call{Workspace: "a"})
	for range 2 {
		err = run("status", opts, func(*bridge.Bridge) error { t.Fatal("ran without a store"); return nil })
		var e *fault.Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, fault.KindStoreUnavailable, e.Kind)
		assert.Equal(t, "store_unavailable", e.Code)
		assert.NotContains(t, e.Msg, "s3cret-pw")
	}
}
