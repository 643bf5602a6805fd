// Package handoff is how ucs hands a call on a PostgreSQL store to ucs-pg,
// the binary that links the database driver (cmd/ucs-pg): which calls are
// on a store, where ucs-pg is, and the exec that makes this process it.
//
// It imports os, runtime and syscall only (not even strings, whose import
// of unicode would hold it back: see package atstart), so that atstart can
// hand a store call off while the process starts, before the packages of
// ucs run their initialization: ucs-pg runs all of it again anyway.
package handoff

import (
	"os"
	"runtime"
	"syscall"
)

// Binary is the name of the binary that serves PostgreSQL stores.
const Binary = "ucs-pg"

// isDatabase reports whether a store URL names a PostgreSQL database
// (store.IsDatabase, which imports more than this package may).
func isDatabase(url string) bool {
	return hasPrefix(url, "postgres://") || hasPrefix(url, "postgresql://")
}

// hasPrefix is strings.HasPrefix.
func hasPrefix(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

// Wanted reports, before the command line is parsed, whether the call is
// on a PostgreSQL store: --store, store push's --to, or UCS_STORE without
// --workspace. Exec's command (after --) is not looked at.
func Wanted(args []string, getenv func(string) string) bool {
	value := func(i int, name string) (string, bool) {
		a := args[i]
		if hasPrefix(a, name+"=") {
			return a[len(name)+1:], true
		}
		if a == name && i+1 < len(args) {
			return args[i+1], true
		}
		return "", false
	}
	explicitDir := false
	for i, a := range args {
		if a == "--" {
			break // exec's command
		}
		if v, ok := value(i, "--store"); ok {
			return isDatabase(v)
		}
		if v, ok := value(i, "--to"); ok && isDatabase(v) {
			return true
		}
		if _, ok := value(i, "--workspace"); ok || hasPrefix(a, "--workspace=") {
			explicitDir = true
		}
	}
	return !explicitDir && getenv != nil && isDatabase(getenv("UCS_STORE"))
}

// Beside returns name's path beside the running executable, where make
// install and go install put the binaries of ucs, if an executable file is
// there. On Linux only, where the executable's path (/proc/self/exe) has
// no symbolic link left to resolve; elsewhere it reports false, and the
// command line looks with path/filepath.
func Beside(name string) (string, bool) {
	if runtime.GOOS != "linux" {
		return "", false
	}
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	i := len(exe) - 1
	for i >= 0 && exe[i] != '/' {
		i--
	}
	if i < 0 {
		return "", false
	}
	p := exe[:i+1] + name
	if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
		return p, true
	}
	return "", false
}

// Exec runs bin as ucs-pg in place of this process, with args (the
// command line without the program's name) and the same environment. It
// returns only if the exec failed.
func Exec(bin string, args []string) error {
	return syscall.Exec(bin, append([]string{Binary}, args...), os.Environ())
}

// Early hands the process's call to ucs-pg if it is on a PostgreSQL store
// and ucs-pg is where UCS_STORE_BINARY says or beside this executable. It
// returns where it cannot (no store, no such file, a failed exec), and
// leaves the call to the command line, which finds ucs-pg on PATH too and
// says what is wrong.
func Early() {
	args := os.Args[1:]
	if !Wanted(args, os.Getenv) {
		return
	}
	bin := os.Getenv("UCS_STORE_BINARY")
	if bin == "" {
		var ok bool
		if bin, ok = Beside(Binary); !ok {
			return
		}
	} else if _, err := os.Stat(bin); err != nil {
		return
	}
	Exec(bin, args)
}
