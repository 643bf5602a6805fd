package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/cli"
)

// fuzzed is the workspace the fuzz target calls on. It is used for
// rotateEvery calls, then proven (check, verify) and replaced: a history
// that grows without end would make each proof slower than the last.
var fuzzed struct {
	sync.Mutex
	dir   string
	calls int
}

const rotateEvery = 100

// fuzzWorkspace returns the workspace to call on, after proving and
// replacing the one in use when it has had its share of calls.
func fuzzWorkspace(t *testing.T) string {
	fuzzed.Lock()
	defer fuzzed.Unlock()
	if fuzzed.dir != "" && fuzzed.calls >= rotateEvery {
		for _, args := range [][]string{{"check"}, {"verify"}} {
			if code, out := runIn(fuzzed.dir, nil, args...); code != 0 {
				t.Fatalf("%v fails after %d fuzzed calls: %s", args, fuzzed.calls, out)
			}
		}
		os.RemoveAll(filepath.Dir(fuzzed.dir))
		fuzzed.dir = ""
	}
	if fuzzed.dir == "" {
		parent, err := os.MkdirTemp("", "ucs-fuzz-")
		if err != nil {
			t.Fatal(err)
		}
		fuzzed.dir, fuzzed.calls = filepath.Join(parent, "ws"), 0
		if code, out := runIn(fuzzed.dir, nil, "init"); code != 0 {
			t.Fatalf("init: %s", out)
		}
	}
	fuzzed.calls++
	return fuzzed.dir
}

// lastJournalLine reads the last line of ws's journal.
func lastJournalLine(t *testing.T, ws string) []byte {
	data, err := os.ReadFile(filepath.Join(ws, "ucs/state/journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.TrimSuffix(data, []byte("\n"))
	return data[bytes.LastIndexByte(data, '\n')+1:]
}

// runIn runs a command line on ws with the given environment.
func runIn(ws string, env map[string]string, args ...string) (int, string) {
	var o, e bytes.Buffer
	all := map[string]string{"UCS_NOW": "2026-11-27T09:00:00Z", "UCS_LOCK_TIMEOUT": "30s"}
	for k, v := range env {
		all[k] = v
	}
	code := cli.Run(append([]string{"--workspace", ws, "--compact"}, args...),
		cli.Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e, Getenv: func(k string) string { return all[k] }})
	return code, o.String() + e.String()
}

// fuzzable are the operations the fuzz target calls, with a valid value
// for each of their required flags: those that run an agent's session.
// (init --force, migrate and view write or move whole files; they have
// tests of their own.)
var fuzzable = []struct {
	op       string
	required []string
}{
	{"consult", []string{"--context", "fix the parser"}},
	{"coverage", []string{"--context", "fix the parser"}},
	{"goal add", []string{"--content", "ship it"}},
	{"goal list", nil},
	{"rate", []string{"--seq", "2", "--success", "failure"}},
	{"amend", []string{"--seq", "2", "--success", "partial"}},
	{"policy block", []string{"--capability", "read"}},
	{"observations", nil},
	{"synthesize", nil},
	{"resume", nil},
	{"status", nil},
	{"log", []string{"--limit", "3"}},
	{"show", nil},
}

// FuzzCommandLine puts arbitrary bytes into one flag (or the agent id) of
// a command of an agent's session: whatever they are, the call either
// runs or is refused with a JSON error, and the workspace stays one that
// status, check and verify pass.
func FuzzCommandLine(f *testing.F) {
	f.Add(uint8(0), uint8(0), []byte("a\xffb"), false)
	f.Add(uint8(2), uint8(0), []byte("ship \xed\xa0\x80 it"), false)
	f.Add(uint8(4), uint8(3), []byte("wrong \xff file"), false)
	f.Add(uint8(0), uint8(0), []byte("\x1b[31mred\x00nul"), true)
	f.Add(uint8(6), uint8(1), []byte("net:http:get,\xc3"), false)
	f.Add(uint8(0), uint8(1), []byte("read,edit"), false)
	f.Cleanup(func() {
		fuzzed.Lock()
		defer fuzzed.Unlock()
		if fuzzed.dir != "" {
			os.RemoveAll(filepath.Dir(fuzzed.dir))
			fuzzed.dir = ""
		}
	})
	f.Fuzz(func(t *testing.T, op, flag uint8, value []byte, asAgent bool) {
		ws := fuzzWorkspace(t)
		spec := fuzzable[int(op)%len(fuzzable)]
		args := append(strings.Fields(spec.op), spec.required...)
		env := map[string]string{}
		var flags []string
		for _, fl := range bridge.Lookup(spec.op).Inputs() {
			if fl.Flag {
				flags = append(flags, "--"+fl.FlagName())
			}
		}
		if asAgent || len(flags) == 0 {
			env["UCS_AGENT_ID"] = string(value)
		} else {
			args = append(args, flags[int(flag)%len(flags)], string(value))
		}
		code, out := runIn(ws, env, args...)
		if code != 0 && !strings.Contains(out, `"code":`) {
			t.Fatalf("%q exit %d without a JSON error: %s", args, code, out)
		}
		// Every call leaves a journal whose last event is text (the
		// failure this target was written for), and every so many calls
		// status proves the workspace loads; check and verify prove it
		// whole when it is replaced (fuzzWorkspace).
		if tail := lastJournalLine(t, ws); !utf8.Valid(tail) {
			t.Fatalf("%q left an event that is not UTF-8: %q", args, tail)
		}
		if fuzzed.calls%25 == 0 {
			if code, out := runIn(ws, nil, "status"); code != 0 {
				t.Fatalf("status fails after %q: %s", args, out)
			}
		}
	})
}
