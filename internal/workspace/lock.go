package workspace

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// A Lock is an flock(2) on the workspace's lock file. The kernel
// releases it when the process dies, so a killed call never leaves a stale
// lock behind.
type Lock struct{ f *os.File }

// Lock takes the workspace's lock, exclusive (one writer) or shared
// (readers), waiting at most Options.LockTimeout; then it gives an error
// of kind busy. Begin and Create take it; Check and a verification take it
// themselves.
//
// It first checks that ucs/ and ucs/state/ are directories, not links
// (realDirs): every call takes the lock before it touches anything else of
// the workspace.
func (l *Workspace) Lock(exclusive bool) (*Lock, error) {
	if err := l.realDirs(RelStateDir); err != nil {
		return nil, err
	}
	return lockWorkspace(l.path(RelLock), exclusive, l.opts.LockTimeout)
}

// lockWorkspace takes the lock, exclusive or shared, polling until timeout.
func lockWorkspace(path string, exclusive bool, timeout time.Duration) (*Lock, error) {
	f, err := openFile(path, os.O_RDWR|os.O_CREATE, FilePerm)
	if err != nil {
		return nil, fault.Internal(err, "open lock file")
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	deadline := time.Now().Add(timeout)
	wait := time.Millisecond
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return &Lock{f}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fault.Internal(err, "lock workspace")
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, &fault.Error{Kind: fault.KindBusy, Code: fault.CodeBusy,
				Msg:  fmt.Sprintf("another ucs process held the workspace for %s", timeout),
				Hint: "retry later, or raise UCS_LOCK_TIMEOUT (a Go duration such as 30s)"}
		}
		time.Sleep(wait)
		wait = min(wait*2, 20*time.Millisecond)
	}
}

// Unlock releases the lock.
func (l *Lock) Unlock() {
	if l != nil && l.f != nil {
		syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
		l.f.Close()
	}
}
