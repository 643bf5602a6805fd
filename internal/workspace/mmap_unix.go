//go:build unix

package workspace

import (
	"errors"
	"os"
	"syscall"
)

// mapFile maps a file of the given size read-only, so that a lookup in a
// record segment reads only the pages it touches. The mapping outlives
// the file's descriptor, and a rename or removal of the file: segments are
// never written in place, only replaced. unmap releases it; nothing read
// from it may be used after.
func mapFile(f *os.File, size int64) (data []byte, unmap func() error, err error) {
	if size <= 0 || size != int64(int(size)) {
		return nil, nil, errors.New("cannot map a file of this size")
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
