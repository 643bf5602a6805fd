//go:build !unix

package workspace

import (
	"os"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// openFile is os.OpenFile for the workspace's own files (see open_unix.go),
// with an Lstat before the open where the platform has no O_NOFOLLOW.
// O_DIRECTORY, which open_unix.go's callers pass for a directory, is not a
// flag here: a directory is accepted only when the open is read-only.
func openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	if fi, err := os.Lstat(name); err == nil {
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			return nil, fault.NotRegular(name, "a symbolic link")
		case fi.Mode().IsRegular(), fi.IsDir() && flag&(os.O_WRONLY|os.O_RDWR) == 0:
		default:
			return nil, fault.NotRegular(name, "not a regular file")
		}
	}
	return os.OpenFile(name, flag, perm)
}

// oDirectory is no flag here: see openFile.
const oDirectory = 0

// openFollow is os.OpenFile.
func openFollow(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
