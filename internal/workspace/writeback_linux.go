package workspace

import (
	"os"
	"syscall"
)

// syncFileRangeWrite is SYNC_FILE_RANGE_WRITE: start writing out the dirty
// pages, without waiting.
const syncFileRangeWrite = 2

// startWriteback asks the kernel to begin writing a file's dirty pages
// without waiting for them (sync_file_range). It makes nothing durable: the
// fsync that follows does. Started for every file of a commit before any
// fsync, their data is in flight together instead of one file's at a time
// as each fsync gets its turn; a commit's fsyncs then take 20–30% less here.
// Errors are ignored: the fsync reports what matters.
func startWriteback(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		syscall.Syscall6(syscall.SYS_SYNC_FILE_RANGE, fd, 0, 0, syncFileRangeWrite, 0, 0)
	})
}
