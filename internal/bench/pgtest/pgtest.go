// Package pgtest gives tests a real PostgreSQL server of their own: a
// throwaway cluster made with initdb in a temporary directory, listening
// on a Unix socket only (no TCP), started once per test binary and stopped
// by Stop. Where the process runs as root (PostgreSQL refuses to), the
// cluster runs as an unprivileged user (postgres, else nobody). Each test
// gets a database of its own (Database).
//
// Without PostgreSQL's programs (on PATH, or Debian's
// /usr/lib/postgresql/VERSION/bin) the tests skip with a message saying
// so, except where UCS_REQUIRE_POSTGRES=1: there they fail.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

var (
	once     sync.Once
	cluster  *server
	startErr error
	dbs      atomic.Int64
)

// A Cluster is a running throwaway cluster (StartCluster), for a
// benchmark; tests use Database.
type Cluster struct{ s *server }

// StartCluster starts a cluster of its own (Stop it).
func StartCluster() (*Cluster, error) {
	s, err := start()
	if err != nil {
		if s != nil {
			s.stop()
		}
		return nil, err
	}
	return &Cluster{s}, nil
}

// NewDatabase creates a database and returns its URL.
func (c *Cluster) NewDatabase(name string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.s.admin)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return c.s.url(name), nil
}

// Stop stops the cluster and removes its files.
func (c *Cluster) Stop() { c.s.stop() }

// server is the running cluster.
type server struct {
	dir   string // data, socket and log
	sock  string
	cmd   *exec.Cmd
	cred  *syscall.Credential
	admin string // the URL of the postgres database
	// bouncers are the poolers in front of it (pooler.go), stopped first.
	bouncers []*bouncer
}

// Required reports whether the tests must run (UCS_REQUIRE_POSTGRES=1).
func Required() bool { return os.Getenv("UCS_REQUIRE_POSTGRES") == "1" }

// Database returns the URL of a new, empty database on the test cluster,
// starting the cluster on first use. Without PostgreSQL it skips t (fails
// it where Required).
func Database(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		cluster, startErr = start()
		if startErr != nil && cluster != nil {
			cluster.stop()
			cluster = nil
		}
	})
	if startErr != nil {
		if Required() || !errors.Is(startErr, errNotInstalled) {
			t.Fatalf("PostgreSQL: %v", startErr)
		}
		t.Skipf("PostgreSQL is not installed (%v); on Debian: apt-get install postgresql. UCS_REQUIRE_POSTGRES=1 makes this a failure", startErr)
	}
	name := fmt.Sprintf("t%d_%d", os.Getpid(), dbs.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, cluster.admin)
	if err != nil {
		t.Fatalf("PostgreSQL: connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("PostgreSQL: create database: %v", err)
	}
	return cluster.url(name)
}

// Role makes a login role of the cluster of db (a URL Database gave) and
// returns its name and a URL of db that connects as it, over the same Unix
// socket (the cluster trusts every local connection). Roles are the
// cluster's, not the database's: the name is base with db's name added, so
// that each test's roles are its own. groups are roles it joins (IN ROLE),
// which must exist.
func Role(t testing.TB, db, base string, groups ...string) (name, url string) {
	t.Helper()
	cfg, err := pgx.ParseConfig(db)
	if err != nil {
		t.Fatalf("PostgreSQL: %v", err)
	}
	name = base + "_" + cfg.Database
	url, err = createRole(db, name, groups)
	if err != nil {
		t.Fatalf("PostgreSQL: %v", err)
	}
	return name, url
}

// NewRole makes the login role name, a member of groups, and returns the
// URL of database db (a URL NewDatabase gave) as that role: a benchmark's
// agents each connect as their own.
func (c *Cluster) NewRole(db, name string, groups ...string) (string, error) {
	return createRole(db, name, groups)
}

// createRole makes a login role, connected to db as its user, and returns
// db's URL as the new role.
func createRole(db, name string, groups []string) (string, error) {
	stmt := "CREATE ROLE " + pgx.Identifier{name}.Sanitize() + " LOGIN"
	for i, g := range groups {
		if i == 0 {
			stmt += " IN ROLE "
		} else {
			stmt += ", "
		}
		stmt += pgx.Identifier{g}.Sanitize()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		return "", fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt); err != nil {
		return "", fmt.Errorf("%s: %w", stmt, err)
	}
	return withUser(db, name), nil
}

// withUser is url with its user replaced.
func withUser(url, user string) string {
	scheme, rest, _ := strings.Cut(url, "://")
	if at := strings.IndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	return scheme + "://" + user + "@" + rest
}

// Stop stops the cluster, if one was started, and removes its files. Call
// it from TestMain after m.Run.
func Stop() {
	if cluster == nil {
		return
	}
	cluster.stop()
	cluster = nil
}

func (s *server) stop() {
	for _, b := range s.bouncers {
		b.stop()
	}
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGQUIT) // immediate shutdown: the data is thrown away
		done := make(chan struct{})
		go func() { s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			s.cmd.Process.Kill()
		}
	}
	os.RemoveAll(s.dir)
}

var errNotInstalled = errors.New("initdb and postgres not found")

func (s *server) url(db string) string {
	return "postgres://ucs@/" + db + "?host=" + s.sock + "&sslmode=disable"
}

// bin finds one of PostgreSQL's programs: on PATH, else in the newest of
// Debian's versioned directories.
func bin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int {
		va, _ := strconv.Atoi(filepath.Base(filepath.Dir(a)))
		vb, _ := strconv.Atoi(filepath.Base(filepath.Dir(b)))
		return vb - va
	})
	for _, d := range dirs {
		if p := filepath.Join(d, name); fileExists(p) {
			return p, nil
		}
	}
	return "", errNotInstalled
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// start makes and starts the cluster.
func start() (*server, error) {
	initdb, err := bin("initdb")
	if err != nil {
		return nil, err
	}
	postgres, err := bin("postgres")
	if err != nil {
		return nil, err
	}
	// A short path: a Unix socket's name is limited to about 100 bytes.
	dir, err := os.MkdirTemp("", "ucs-pg-")
	if err != nil {
		return nil, err
	}
	s := &server{dir: dir, sock: dir}
	if os.Geteuid() == 0 {
		if s.cred, err = unprivileged(); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		if err := os.Chown(dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	out, err := s.command(initdb, "-D", data, "-U", "ucs", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions").CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	// Every role may connect over the socket, without a password: the
	// tests connect as the roles they make (Role). No TCP line: the
	// server listens on none.
	hba := filepath.Join(data, "pg_hba.conf")
	if err := os.WriteFile(hba, []byte("local all all trust\n"), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if s.cred != nil {
		os.Chown(hba, int(s.cred.Uid), int(s.cred.Gid))
	}
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if s.cred != nil {
		logf.Chown(int(s.cred.Uid), int(s.cred.Gid))
	}
	// No TCP; the socket in the cluster's directory; durability as
	// configured by default, so that the tests see a real commit.
	s.cmd = s.command(postgres, "-D", data, "-k", dir, "-c", "listen_addresses=", "-c", "max_connections=200")
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("postgres: %v", err)
	}
	s.admin = s.url("postgres")
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, s.admin)
		if err == nil {
			conn.Close(ctx)
			cancel()
			return s, nil
		}
		cancel()
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			return s, fmt.Errorf("the server did not start: %v: %s", err, log)
		}
		if c, err := net.Dial("unix", filepath.Join(dir, ".s.PGSQL.5432")); err == nil {
			c.Close()
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// command runs a PostgreSQL program, as the unprivileged user when there
// is one.
func (s *server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd
}

// unprivileged is the user a cluster started by root runs as.
func unprivileged() (*syscall.Credential, error) {
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.Atoi(u.Uid)
		gid, err2 := strconv.Atoi(u.Gid)
		if err1 == nil && err2 == nil {
			return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
		}
	}
	return nil, errors.New("running as root, and there is no postgres or nobody user to run PostgreSQL as")
}
