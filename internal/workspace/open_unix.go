//go:build unix

package workspace

import (
	"os"
	"syscall"
)

// openFile is os.OpenFile for the workspace's regular files, without the
// network poller: os.OpenFile offers every file it opens to the poller
// (four fcntl calls and an epoll_ctl that fails for a regular file, and the
// first open creates the poller), about thirty system calls a call spends
// for nothing. os.NewFile of a blocking descriptor skips the poller.
func openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == nil {
			return os.NewFile(uintptr(fd), name), nil
		}
		if err != syscall.EINTR {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
	}
}
