package pgstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// A mirror is a workspace's local copy: its directory (cache/ws/NAME; a
// peer's, cache/peers/NAME), its lock (the directory's name + ".lock",
// outside it so that a rebuild can empty it) and the version it holds
// (+ ".version").
type mirror struct {
	name, dir string
	lock      *os.File
}

func (s *Store) mirrorOf(name string) *mirror {
	return &mirror{name: name, dir: filepath.Join(s.cache, "ws", name)}
}

// lockMirror takes the mirror's lock, exclusively: the processes of one
// machine take turns on a mirror (the database's row lock orders them
// with the other machines').
func (m *mirror) lockMirror(timeout time.Duration) error {
	if err := os.MkdirAll(filepath.Dir(m.dir), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(m.dir+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			m.lock = f
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return err
		}
		if time.Now().After(deadline) {
			f.Close()
			return ErrBusy
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// drop removes the mirror when no process holds it (else the next call
// will): its directory and version, not its lock file, which a process
// may have opened to wait on.
func (m *mirror) drop() {
	f, err := os.OpenFile(m.dir+".lock", os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	os.Remove(m.dir + ".version")
	os.RemoveAll(m.dir)
}

// mirroredPeers names the peers mirrored under root.
func mirroredPeers(root string) []string {
	entries, _ := os.ReadDir(root)
	names := []string{}
	for _, e := range entries {
		if e.IsDir() && validName(e.Name()) {
			names = append(names, e.Name())
		}
	}
	return names
}

func (m *mirror) unlock() {
	if m.lock != nil {
		syscall.Flock(int(m.lock.Fd()), syscall.LOCK_UN)
		m.lock.Close()
		m.lock = nil
	}
}

// ErrBusy: the workspace stayed locked longer than the lock timeout.
var ErrBusy = errors.New("the workspace is busy")

// version is the version the mirror holds (0: none, or unknown). The
// file names the boot it was written in: a mirror's commits are not
// fsynced (the store's are), so after a reboot (a power loss may have
// cut any of its files short) it is unknown, and the mirror is rebuilt.
func (m *mirror) version() int64 {
	b, err := os.ReadFile(m.dir + ".version")
	if err != nil {
		return 0
	}
	v, boot, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || boot != bootID() {
		return 0
	}
	return n
}

// setVersion records the version the mirror holds. It writes over the
// file in place, the number right-aligned so that the file keeps its
// length from call to call: truncating it first cost a call about 0.1 ms.
// A write a crash cut short leaves no version that parses with this
// boot's id, and the mirror is rebuilt.
func (m *mirror) setVersion(v int64) error {
	b := fmt.Appendf(nil, "%19d %s\n", v, bootID())
	f, err := os.OpenFile(m.dir+".version", os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteAt(b, 0)
	if st, serr := f.Stat(); err == nil && (serr != nil || st.Size() > int64(len(b))) {
		err = f.Truncate(int64(len(b)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// bootID names the machine's current boot (Linux's boot_id), or "" where
// it cannot be known: there the mirror's commits are fsynced as a
// directory workspace's are.
func bootID() string {
	bootOnce.Do(func() {
		b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
		if err == nil {
			boot = strings.TrimSpace(string(b))
		}
	})
	return boot
}

var (
	bootOnce sync.Once
	boot     string
)

// row is what the workspaces table says of one.
type row struct {
	exists                bool
	version, seq, journal int64
	fleet                 string
	private               bool
}

// current reports whether the mirror holds the row's version: its
// recorded version, and a journal of the length the store holds (a
// process killed between its local commit and the store's leaves the
// mirror's journal longer).
func (m *mirror) current(r row) bool {
	if m.version() != r.version || r.version == 0 {
		return false
	}
	st, err := os.Stat(filepath.Join(m.dir, filepath.FromSlash(workspace.RelJournal)))
	size := int64(0)
	if err == nil {
		size = st.Size()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return size == r.journal
}

// sync brings the mirror to the row's version: the changes of the
// versions it lacks when it is behind, else (ahead, damaged, unknown) a
// rebuild from the store.
func (m *mirror) sync(ctx context.Context, q querier, r row) error {
	if m.current(r) {
		return nil
	}
	have := m.version()
	if have > 0 && have < r.version {
		st, err := os.Stat(filepath.Join(m.dir, filepath.FromSlash(workspace.RelJournal)))
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			var size int64
			if err == nil {
				size = st.Size()
			}
			// The journal length the mirror's version had.
			var want int64
			if err := q.QueryRow(ctx, `SELECT coalesce(sum(length(line)), 0) FROM ucs_journal WHERE workspace = $1 AND version <= $2`,
				m.name, have).Scan(&want); err == nil && want == size {
				if err := m.pull(ctx, q, have); err == nil {
					return m.setVersion(r.version)
				}
			}
		}
	}
	return m.rebuild(ctx, q, r.version)
}

// querier is a connection or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// rebuild empties the mirror and writes the store's files into it. The
// pending queue (observations ucs exec queued on this machine for the next
// changing call) is not the store's: it is kept.
func (m *mirror) rebuild(ctx context.Context, q querier, version int64) error {
	os.Remove(m.dir + ".version")
	pending := filepath.Join(m.dir, filepath.FromSlash(workspace.RelPending))
	queued, _ := os.ReadFile(pending)
	if err := os.RemoveAll(m.dir); err != nil {
		return err
	}
	if err := os.MkdirAll(m.dir, 0o700); err != nil {
		return err
	}
	if len(queued) > 0 {
		if err := writeFile(pending, queued); err != nil {
			return err
		}
	}
	if version == 0 {
		return nil
	}
	if err := m.pull(ctx, q, 0); err != nil {
		return err
	}
	return m.setVersion(version)
}

// pull writes the changes of the versions after have into the mirror.
func (m *mirror) pull(ctx context.Context, q querier, have int64) error {
	// Files removed (and whole files written) first, then chunks.
	rows, err := q.Query(ctx, `SELECT path, data FROM ucs_blobs WHERE workspace = $1 AND version > $2 ORDER BY path`, m.name, have)
	if err != nil {
		return err
	}
	for rows.Next() {
		var p string
		var data []byte
		if err := rows.Scan(&p, &data); err != nil {
			rows.Close()
			return err
		}
		name, err := m.file(p)
		if err != nil {
			rows.Close()
			return err
		}
		if data == nil {
			if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
				rows.Close()
				return err
			}
			continue
		}
		if err := writeFile(name, data); err != nil {
			rows.Close()
			return err
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}

	rows, err = q.Query(ctx, `SELECT path, off, data FROM ucs_chunks WHERE workspace = $1 AND version > $2 ORDER BY path, off`, m.name, have)
	if err != nil {
		return err
	}
	var f *os.File
	var open string
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	for rows.Next() {
		var p string
		var off int64
		var data []byte
		if err := rows.Scan(&p, &off, &data); err != nil {
			rows.Close()
			return err
		}
		if p != open {
			if f != nil {
				f.Close()
			}
			name, err := m.file(p)
			if err != nil {
				rows.Close()
				return err
			}
			if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
				rows.Close()
				return err
			}
			if f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600); err != nil {
				rows.Close()
				return err
			}
			open = p
			// The first chunk pulled of a file starts where the file
			// stood at the mirror's version, or at 0 when the file was
			// rewritten since: what follows it is not the store's.
			if err := f.Truncate(off); err != nil {
				rows.Close()
				return err
			}
		}
		if _, err := f.WriteAt(data, off); err != nil {
			rows.Close()
			return err
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}

	// The journal's events, appended in order (all of them when it was
	// rewritten since).
	rows, err = q.Query(ctx, `SELECT seq, line FROM ucs_journal WHERE workspace = $1 AND version > $2 ORDER BY seq`, m.name, have)
	if err != nil {
		return err
	}
	defer rows.Close()
	var buf bytes.Buffer
	first := int64(-1)
	for rows.Next() {
		var seq int64
		var line []byte
		if err := rows.Scan(&seq, &line); err != nil {
			return err
		}
		if first < 0 {
			first = seq
		}
		buf.Write(line)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if buf.Len() == 0 {
		return nil
	}
	name, _ := m.file(workspace.RelJournal)
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	jf, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer jf.Close()
	end, err := jf.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	if have > 0 {
		if seq, _, err := workspace.New(m.dir, workspace.Options{}).JournalEnd(); err != nil || seq >= first {
			end = 0 // rewritten since: the whole journal comes again
		}
	} else {
		end = 0
	}
	if err := jf.Truncate(end); err != nil {
		return err
	}
	_, err = jf.WriteAt(buf.Bytes(), end)
	return err
}

// file is the mirror's file of a stored path, refusing a path that would
// leave the mirror.
func (m *mirror) file(p string) (string, error) {
	if p == "" || path.IsAbs(p) || path.Clean(p) != p || strings.HasPrefix(p, "../") || p == ".." {
		return "", fmt.Errorf("the store holds a file outside the workspace: %q", p)
	}
	return filepath.Join(m.dir, filepath.FromSlash(p)), nil
}

func writeFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o600)
}
