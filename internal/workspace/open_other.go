//go:build !unix

package workspace

import "os"

// openFile is os.OpenFile; see open_unix.go.
func openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
