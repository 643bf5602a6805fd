//go:build unix

package policy

import (
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// writablePath returns the first of the file abs and the directories
// above it that the calling user can write or replace, or "" when none
// (see the policy file's rules in file.go).
func writablePath(abs string) (string, error) {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	if canWrite(real) {
		return real, nil
	}
	seen := map[string]bool{}
	for _, start := range []string{abs, real} {
		for child, dir := start, filepath.Dir(start); ; child, dir = dir, filepath.Dir(dir) {
			if !seen[child] {
				seen[child] = true
				if canWrite(dir) && !stickyProtects(dir, child) {
					return dir, nil
				}
			}
			if dir == child || dir == "/" {
				break
			}
		}
	}
	return "", nil
}

// canWrite reports whether the calling process may write path, as the
// kernel decides with its effective ids (access(2), AT_EACCESS).
func canWrite(path string) bool {
	return unix.Faccessat(unix.AT_FDCWD, path, unix.W_OK, unix.AT_EACCESS) == nil
}

// stickyProtects reports whether dir's sticky bit keeps the calling user
// from replacing child: neither is the user's.
func stickyProtects(dir, child string) bool {
	euid := uint32(os.Geteuid())
	var d, c syscall.Stat_t
	if syscall.Stat(dir, &d) != nil || syscall.Lstat(child, &c) != nil {
		return false
	}
	return d.Mode&syscall.S_ISVTX != 0 && d.Uid != euid && c.Uid != euid
}
