package workspace

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// The pending queue holds observations that could not be committed when
// they were made: ucs exec runs a tool whatever state the workspace is in
// (busy past the lock timeout, needing recovery), and an observation must
// never be lost. Exec appends one line (a call's JSON, carrying a
// request_id) before it tries to commit; the next call that commits applies
// every queued line as a call of its own, journaled, and the request_id
// makes each apply exactly once: a line that was committed but not yet
// removed (a process killed between the two) is recognized and dropped.
//
// The queue has its own small lock (RelPendingLock), never held while
// waiting for the workspace's: an append takes it for one write, a drain
// for the time to read the queue and rewrite what is left.
const (
	RelPending     = "ucs/state/pending.jsonl"
	RelPendingLock = "ucs/state/pending.lock"
)

// MaxPending is the most lines the queue keeps: beyond it the oldest are
// dropped with a warning (a workspace that has been unwritable for that
// long has a problem an operator must see).
const MaxPending = 10000

// lockPending takes the queue's lock, waiting at most a few seconds.
func (l *Workspace) lockPending() (*os.File, error) {
	if err := l.realDirs(RelStateDir); err != nil {
		return nil, err
	}
	f, err := openFile(l.path(RelPendingLock), os.O_RDWR|os.O_CREATE, FilePerm)
	if err != nil {
		return nil, fault.Internal(err, "open the pending queue's lock")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) || time.Now().After(deadline) {
			f.Close()
			return nil, fault.Internal(err, "lock the pending queue")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// QueuePending appends one line to the pending queue, durably: the line is
// on disk (fsynced) when it returns.
func (l *Workspace) QueuePending(line []byte) error {
	if bytes.ContainsRune(line, '\n') {
		return fault.Internal(errors.New("a pending line holds a newline"), "queue an observation")
	}
	lk, err := l.lockPending()
	if err != nil {
		return err
	}
	defer lk.Close()
	f, err := openFile(l.path(RelPending), os.O_RDWR|os.O_CREATE|os.O_APPEND, FilePerm)
	if err != nil {
		return fault.Internal(err, "open the pending queue")
	}
	// A line torn by a writer killed mid-write must not swallow this one:
	// it gets its newline first (a drain drops it as no call).
	rec := append(line, '\n')
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
			rec = append([]byte{'\n'}, rec...)
		}
	}
	_, werr := f.Write(rec)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fault.Internal(werr, "append to the pending queue")
	}
	return nil
}

// HasPending reports whether the pending queue holds anything: one stat,
// so every committing call can afford to ask.
func (l *Workspace) HasPending() bool {
	st, err := os.Lstat(l.path(RelPending))
	return err == nil && st.Size() > 0
}

// PendingCount is how many lines the pending queue holds.
func (l *Workspace) PendingCount() int {
	data, err := readFile(l.path(RelPending))
	if err != nil {
		return 0
	}
	return bytes.Count(data, []byte("\n"))
}

// DrainPending hands every queued line, oldest first, to apply, and
// removes from the queue the lines applied, up to the first apply says it
// could not apply (keep true): the order of observations is kept. The
// queue's lock is held only to read it and to remove what was applied, not
// while the calls run (each takes the workspace's lock), so an exec can
// queue meanwhile; its line stays. Two drains at once may both apply a
// line: its request_id makes the second a no-op. It returns the number of
// lines applied.
func (l *Workspace) DrainPending(apply func(line []byte) (keep bool)) (int, error) {
	lines, err := l.pendingLines()
	if err != nil || len(lines) == 0 {
		return 0, err
	}
	var done [][]byte
	for _, line := range lines {
		if apply(bytes.TrimSuffix(line, []byte("\n"))) {
			break
		}
		done = append(done, line)
	}
	if len(done) == 0 {
		return 0, nil
	}
	lk, err := l.lockPending()
	if err != nil {
		return len(done), err
	}
	defer lk.Close()
	data, err := readFile(l.path(RelPending))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return len(done), fault.Internal(err, "read the pending queue")
	}
	for _, d := range done {
		// Another drain may have removed it already; then it is not at
		// the front, and nothing before what it left is ours to remove.
		if bytes.HasPrefix(data, d) {
			data = data[len(d):]
		}
	}
	// Emptied, the queue is truncated without a sync: should the machine
	// lose the truncation, the lines come back and their request ids,
	// committed, make them no-ops. What is left is rewritten atomically.
	if len(data) == 0 {
		if err := truncateFile(l, RelPending, 0); err != nil {
			return len(done), err
		}
		return len(done), nil
	}
	if err := replaceFile(l.path(RelPending), data, true); err != nil {
		return len(done), fault.Internal(err, "rewrite the pending queue")
	}
	return len(done), nil
}

// pendingLines reads the queue's whole lines (with their newlines), under
// its lock, at most the newest MaxPending. A torn last line (a writer
// killed mid-write, which never reported it queued) is not one.
func (l *Workspace) pendingLines() ([][]byte, error) {
	lk, err := l.lockPending()
	if err != nil {
		return nil, err
	}
	defer lk.Close()
	data, err := readFile(l.path(RelPending))
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(data) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, fault.Internal(err, "read the pending queue")
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if n := len(lines); n > 0 && !bytes.HasSuffix(lines[n-1], []byte("\n")) {
		lines = lines[:n-1]
	}
	if len(lines) > MaxPending {
		lines = lines[len(lines)-MaxPending:]
	}
	return lines, nil
}
