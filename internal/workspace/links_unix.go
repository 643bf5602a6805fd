//go:build unix

package workspace

import (
	"io/fs"
	"syscall"
)

// singleLink reports whether the file has one name (no hard link beside
// it, which writing over it would change too).
func singleLink(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 1
}
