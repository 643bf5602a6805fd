//go:build unix

package workspace

import (
	"os"
	"syscall"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// openFile opens one of the workspace's own regular files, or with
// O_DIRECTORY one of its directories, as os.OpenFile does but never through
// a symbolic link and never anything else (a named pipe, a device): that is
// damage, an error of kind corrupt (fault.NotRegular) naming the path. A
// link in a workspace from a shared folder, a tarball or a repository would
// otherwise make an append, a truncation or a read reach a file outside it.
// O_NOFOLLOW refuses a link in the last component (the directories above
// are checked by realDirs); O_NONBLOCK keeps the open of a named pipe from
// waiting for a writer, and is cleared again once fstat has shown a regular
// file.
//
// It also skips the network poller: os.OpenFile offers every file it opens
// to the poller (four fcntl calls and an epoll_ctl that fails for a regular
// file, and the first open creates the poller), about thirty system calls a
// call spends for nothing. os.NewFile of a blocking descriptor skips it.
func openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	fd, err := open(name, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, perm)
	if err == syscall.ELOOP || err == syscall.EMLINK { // EMLINK: the BSDs' answer to O_NOFOLLOW
		return nil, fault.NotRegular(name, "a symbolic link")
	}
	if err == syscall.ENXIO && flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		return nil, fault.NotRegular(name, "a named pipe or a device") // what a write-only open of a pipe with no reader says
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	var st syscall.Stat_t
	if err := fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "fstat", Path: name, Err: err}
	}
	switch typ := st.Mode & syscall.S_IFMT; {
	case typ == syscall.S_IFREG, typ == syscall.S_IFDIR && flag&syscall.O_DIRECTORY != 0:
	default:
		syscall.Close(fd)
		return nil, fault.NotRegular(name, fileType(uint32(typ)))
	}
	// F_SETFL sets only the status flags; of those the caller may have
	// asked for O_APPEND.
	if err := setFlags(fd, flag&syscall.O_APPEND); err != nil {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "fcntl", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

// oDirectory asks openFile for a directory.
const oDirectory = syscall.O_DIRECTORY

// openFollow is openFile for a file the user names (a manifest, the agent's
// working state): links are followed, and nothing is checked.
func openFollow(name string, flag int, perm os.FileMode) (*os.File, error) {
	fd, err := open(name, flag, perm)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

// open is open(2) with O_CLOEXEC, retried on EINTR.
func open(name string, flag int, perm os.FileMode) (int, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func fstat(fd int, st *syscall.Stat_t) error {
	for {
		if err := syscall.Fstat(fd, st); err != syscall.EINTR {
			return err
		}
	}
}

func setFlags(fd, flags int) error {
	_, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFL, uintptr(flags))
	if e != 0 {
		return e
	}
	return nil
}

// fileType names a file type of stat(2)'s mode for an error message.
func fileType(typ uint32) string {
	switch typ {
	case syscall.S_IFLNK:
		return "a symbolic link"
	case syscall.S_IFDIR:
		return "a directory"
	case syscall.S_IFIFO:
		return "a named pipe"
	case syscall.S_IFSOCK:
		return "a socket"
	case syscall.S_IFCHR, syscall.S_IFBLK:
		return "a device"
	}
	return "not a regular file"
}
