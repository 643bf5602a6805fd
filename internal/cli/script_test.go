package cli_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/cli"
)

// exitFile is where the ucs command of the scripts records its exit code,
// relative to $WORK, for the exitcode command.
const exitFile = ".ucs-exit"

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ucs": func() {
			// A stale record must never pass for this run's: remove it
			// first, so a run that dies before recording leaves none.
			record := ""
			if w := os.Getenv("WORK"); w != "" {
				record = filepath.Join(w, exitFile)
				os.Remove(record)
			}
			code := cli.Run(os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
			if record != "" {
				os.WriteFile(record, []byte(strconv.Itoa(code)), 0o644)
			}
			os.Exit(code)
		},
	})
}

func TestScripts(t *testing.T) {
	refws, err := filepath.Abs("../../testdata/reference-v2/workspace")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		// UCS_UPDATE_SCRIPTS=1 rewrites the golden files that cmp compares
		// stdout with, for a change of output made on purpose: read the
		// diff before committing it.
		UpdateScripts: os.Getenv("UCS_UPDATE_SCRIPTS") == "1",
		Setup: func(env *testscript.Env) error {
			env.Setenv("UCS_NOW", "2026-11-21T21:01:00Z")
			// The scripts were written for the reference's model; v3.txtar
			// sets its own.
			env.Setenv("UCS_MODEL", "v2")
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("UCS_LOCK_TIMEOUT", "200ms")
			// A -race build sleeps a second at exit by default (for other
			// goroutines' reports); every ucs of a script is one process, and
			// the new user's session runs 675 of them.
			env.Setenv("GORACE", "atexit_sleep_ms=0")
			// A workspace written by the Python reference, read-only:
			// scripts copy its files before using them.
			env.Setenv("REFWS", refws)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"jsonpath":    cmdJSONPath,
			"hashws":      cmdHashWS,
			"holdlock":    cmdHoldLock,
			"releaselock": cmdReleaseLock,
			"exitcode":    cmdExitCode,
			"tear":        cmdTear,
			"waitfile":    cmdWaitFile,
			"perm":        cmdPerm,
			"cmpexcept":   cmdCmpExcept,
		},
	})
}

// cmpexcept A B WORD: compares files A and B (stdout for the last
// command's) byte for byte, but for the lines that hold WORD, left out of
// both: two answers alike but for a member that names each workspace's own
// event (consult's "advisory_id").
func cmdCmpExcept(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: cmpexcept A B WORD")
	}
	read := func(name string) string {
		text := ts.ReadFile(name)
		var kept []string
		for l := range strings.SplitSeq(text, "\n") {
			if !strings.Contains(l, args[2]) {
				kept = append(kept, l)
			}
		}
		return strings.Join(kept, "\n")
	}
	if a, b := read(args[0]), read(args[1]); a != b {
		ts.Logf("%s and %s differ beyond the lines holding %q", args[0], args[1], args[2])
		ts.Fatalf("%s", ts.ReadFile(args[0])+"\n---\n"+ts.ReadFile(args[1]))
	}
}

// waitfile FILE: waits (up to a minute) until FILE exists and is not
// empty: a background ucs got that far. Not a timing: it waits for the
// state, however slow the machine.
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile FILE")
	}
	path := ts.MkAbs(args[0])
	for start := time.Now(); time.Since(start) < time.Minute; time.Sleep(5 * time.Millisecond) {
		if st, err := os.Stat(path); err == nil && st.Size() > 0 {
			return
		}
	}
	ts.Fatalf("%s did not appear within a minute", args[0])
}

// jsonpath FILE PATH WANT: FILE (or stdout, stderr) must be valid JSON whose
// value at the gjson PATH, as gjson's String(), is WANT; with !, is not WANT.
// A missing path gives "".
func cmdJSONPath(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: jsonpath FILE PATH WANT")
	}
	data := ts.ReadFile(args[0])
	if !gjson.Valid(data) {
		ts.Fatalf("%s is not valid JSON:\n%s", args[0], data)
	}
	res := gjson.Get(data, args[1])
	got := res.String()
	if neg {
		if got == args[2] {
			ts.Fatalf("%s: %s is %q, want anything else", args[0], args[1], got)
		}
		return
	}
	if got != args[2] {
		if !res.Exists() {
			ts.Fatalf("%s: %s does not exist, want %q", args[0], args[1], args[2])
		}
		ts.Fatalf("%s: %s is %q, want %q", args[0], args[1], got, args[2])
	}
}

// hashws DIR OUT: writes to OUT one line per regular file under DIR, its
// slash-separated relative path and SHA-256, sorted by path, leaving out
// the lock file ucs/state/lock (taking a lock may create it). cmp two such
// files to show that a call changed nothing.
func cmdHashWS(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: hashws DIR OUT")
	}
	root := ts.MkAbs(args[0])
	var lines []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "ucs/state/lock" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		lines = append(lines, rel+" "+hex.EncodeToString(sum[:]))
		return nil
	})
	ts.Check(err)
	slices.Sort(lines)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(strings.Join(lines, "\n")+"\n"), 0o644))
}

// heldLocks are the workspace locks the scripts hold, by lock file path.
var (
	heldMu    sync.Mutex
	heldLocks = map[string]*os.File{}
)

// holdlock DIR: takes an exclusive flock on DIR/ucs/state/lock from the
// test process, as another ucs process would, until releaselock DIR or the
// end of the script. A ucs command then finds the workspace busy.
func cmdHoldLock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: holdlock DIR")
	}
	path := filepath.Join(ts.MkAbs(args[0]), "ucs", "state", "lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	ts.Check(err)
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		ts.Fatalf("holdlock %s: %v", args[0], err)
	}
	heldMu.Lock()
	defer heldMu.Unlock()
	if _, ok := heldLocks[path]; ok {
		f.Close()
		ts.Fatalf("holdlock %s: already held", args[0])
	}
	heldLocks[path] = f
	ts.Defer(func() { releaseLock(path) })
}

// releaselock DIR: releases the lock holdlock DIR took.
func cmdReleaseLock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: releaselock DIR")
	}
	path := filepath.Join(ts.MkAbs(args[0]), "ucs", "state", "lock")
	if !releaseLock(path) {
		ts.Fatalf("releaselock %s: not held", args[0])
	}
}

func releaseLock(path string) bool {
	heldMu.Lock()
	defer heldMu.Unlock()
	f, ok := heldLocks[path]
	if !ok {
		return false
	}
	delete(heldLocks, path)
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	f.Close()
	return true
}

// exitcode N: the last `exec ucs` exited with code N (testscript's exec
// only tells success from failure). The record is consumed, so each
// exitcode checks a run of its own.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: exitcode N")
	}
	path := filepath.Join(ts.Getenv("WORK"), exitFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		ts.Fatalf("exitcode: no exit code recorded: did the last ucs run finish, and was it not checked already?")
	}
	ts.Check(err)
	ts.Check(os.Remove(path))
	if got := string(data); got != args[0] {
		ts.Fatalf("ucs exited with code %s, want %s", got, args[0])
	}
}

// tear FILE TEXT: appends TEXT to FILE without a newline, the torn last
// line a write cut short leaves behind.
func cmdTear(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tear FILE TEXT")
	}
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_WRONLY|os.O_APPEND, 0)
	ts.Check(err)
	_, err = f.WriteString(args[1])
	ts.Check(err)
	ts.Check(f.Close())
}

// cmdPerm checks that FILE is a regular file (not a link: it is not
// followed) with permissions MODE, in octal.
func cmdPerm(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: perm FILE MODE")
	}
	want, err := strconv.ParseUint(args[1], 8, 32)
	ts.Check(err)
	fi, err := os.Lstat(ts.MkAbs(args[0]))
	ts.Check(err)
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != os.FileMode(want) {
		ts.Fatalf("%s is %v, want a regular file %04o", args[0], fi.Mode(), want)
	}
}
