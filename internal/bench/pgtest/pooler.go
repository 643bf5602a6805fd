package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// A pooler is PgBouncer in transaction mode in front of a cluster, on a
// Unix socket of its own (no TCP): what many short-lived processes
// connect through so that each does not fork a PostgreSQL backend. A
// server connection is a client's only for the length of a transaction,
// so nothing of a session (a session's advisory lock, SET, a named
// prepared statement) survives from one transaction to the next.

// PoolerPort is the port in the name of the pooler's socket
// (.s.PGSQL.6432).
const PoolerPort = 6432

var (
	poolerOnce sync.Once
	pooler     *bouncer
	poolerErr  error
)

// errNoPgBouncer: PgBouncer is not installed.
var errNoPgBouncer = errors.New("pgbouncer not found")

// A bouncer is a running PgBouncer.
type bouncer struct {
	dir string // its configuration, socket, log and pid file
	cmd *exec.Cmd
}

// PooledDatabase returns the URL of a new, empty database on the test
// cluster reached through PgBouncer in transaction mode, starting both on
// first use, and the same database's direct URL. Without PgBouncer it
// skips t (fails it where Required).
func PooledDatabase(t testing.TB) (pooled, direct string) {
	t.Helper()
	direct = Database(t)
	poolerOnce.Do(func() {
		pooler, poolerErr = startPooler(cluster)
	})
	if poolerErr != nil {
		if Required() || !errors.Is(poolerErr, errNoPgBouncer) {
			t.Fatalf("PgBouncer: %v", poolerErr)
		}
		t.Skipf("PgBouncer is not installed (%v); on Debian: apt-get install pgbouncer. UCS_REQUIRE_POSTGRES=1 makes this a failure", poolerErr)
	}
	return Pooled(direct, pooler.dir), direct
}

// Pooler starts PgBouncer in transaction mode in front of the cluster (Stop
// stops both) and returns the directory of its socket: Pooled gives a
// database's URL through it.
func (c *Cluster) Pooler() (string, error) {
	b, err := startPooler(c.s)
	if err != nil {
		return "", err
	}
	return b.dir, nil
}

// Pooled is the URL of a database of the cluster (its direct URL, as
// Database and NewDatabase give it) through the pooler whose socket is in
// dir.
func Pooled(direct, dir string) string {
	u, err := url.Parse(direct)
	if err != nil {
		return direct
	}
	q := u.Query()
	q.Set("host", dir)
	q.Set("port", fmt.Sprint(PoolerPort))
	u.RawQuery = q.Encode()
	return u.String()
}

// startPooler starts PgBouncer in front of s: every database of the
// cluster, any user the cluster trusts, transaction pooling.
func startPooler(s *server) (*bouncer, error) {
	if s == nil {
		return nil, errors.New("no cluster")
	}
	bin, err := exec.LookPath("pgbouncer")
	if err != nil {
		if _, e := os.Stat("/usr/sbin/pgbouncer"); e != nil {
			return nil, errNoPgBouncer
		}
		bin = "/usr/sbin/pgbouncer"
	}
	dir, err := os.MkdirTemp("", "ucs-pgb-")
	if err != nil {
		return nil, err
	}
	b := &bouncer{dir: dir}
	if s.cred != nil {
		if err := os.Chown(dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	// auth_type trust still wants the user named in the auth file.
	users := filepath.Join(dir, "users.txt")
	ini := filepath.Join(dir, "pgbouncer.ini")
	conf := fmt.Sprintf(`[databases]
* = host=%s port=5432

[pgbouncer]
listen_addr =
listen_port = %d
unix_socket_dir = %s
auth_type = trust
auth_file = %s
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
max_db_connections = 40
ignore_startup_parameters = extra_float_digits
logfile = %s
pidfile = %s
`, s.sock, PoolerPort, dir, users, filepath.Join(dir, "pgbouncer.log"), filepath.Join(dir, "pgbouncer.pid"))
	for name, data := range map[string]string{users: `"ucs" ""` + "\n", ini: conf} {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		if s.cred != nil {
			os.Chown(name, int(s.cred.Uid), int(s.cred.Gid))
		}
	}
	b.cmd = exec.Command(bin, ini)
	b.cmd.Dir = dir
	if s.cred != nil {
		b.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	if err := b.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgbouncer: %v", err)
	}
	s.bouncers = append(s.bouncers, b)
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, Pooled(s.url("postgres"), dir))
		if err == nil {
			conn.Close(ctx)
			cancel()
			return b, nil
		}
		cancel()
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "pgbouncer.log"))
			return nil, fmt.Errorf("pgbouncer did not start: %v: %s", err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (b *bouncer) stop() {
	if b.cmd != nil && b.cmd.Process != nil {
		b.cmd.Process.Signal(syscall.SIGTERM) // immediate
		done := make(chan struct{})
		go func() { b.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			b.cmd.Process.Kill()
			<-done
		}
	}
	os.RemoveAll(b.dir)
}
