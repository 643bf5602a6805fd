package workspace

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
)

// scanLinesFrom calls fn for every complete line of a file from off, with
// its newline, until fn returns false.
func scanLinesFrom(name string, off int64, fn func(line []byte) bool) error {
	f, err := openRead(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return err
	}
	r := bufio.NewReaderSize(f, 256<<10)
	var long []byte
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil {
			return nil // EOF: what is left is a torn line
		}
		if !fn(line) {
			return nil
		}
	}
}
