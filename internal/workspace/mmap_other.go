//go:build !unix

package workspace

import (
	"errors"
	"io"
	"os"
)

// mapFile reads a file whole where the platform has no mmap: lookups cost
// the segment's size, as they would not on unix.
func mapFile(f *os.File, size int64) (data []byte, unmap func() error, err error) {
	if size <= 0 || size != int64(int(size)) {
		return nil, nil, errors.New("cannot read a file of this size")
	}
	data = make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil && err != io.EOF {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
