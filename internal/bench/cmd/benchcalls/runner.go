package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"
)

// runnerFlag makes benchcalls the runner of the calls.
const runnerFlag = "-runner"

// A runner is a small child process of benchcalls that starts every call
// and times it, fork/exec to exit, as hyperfine does: it stays up for the
// whole run, so no call's time includes the start of the process that
// launches it. It also measures each call's peak RSS, which must come from
// a small process: Go starts a child with vfork semantics, and Linux folds
// the high-water RSS of the memory the child was started from into the
// child's ru_maxrss. Started straight from benchcalls, which holds the
// generated knowledge, a call would report benchcalls's peak; started from
// the runner, which buffers nothing (a call's output goes to a file), it
// reports at least the runner's own (about 3 MiB) and otherwise its true
// peak.
type runner struct {
	cmd  *exec.Cmd
	req  io.WriteCloser
	resp *bufio.Reader
	dir  string // the calls' stdin, stdout and stderr files
}

// A runRequest asks the runner for one call. Stdin is a file's path, or
// empty for none.
type runRequest struct {
	Argv                  []string
	Stdin, Stdout, Stderr string
}

// A runResponse is the call's wall time, peak RSS and exit code (-1: it
// could not be run; Err says why).
type runResponse struct {
	NS, KB int64
	Code   int
	Err    string
}

func startRunner(dir string) (*runner, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, runnerFlag)
	cmd.Env = append(os.Environ(), "UCS_TIMINGS=")
	cmd.Stderr = os.Stderr
	req, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &runner{cmd: cmd, req: req, resp: bufio.NewReader(out), dir: dir}, nil
}

func (r *runner) stop() {
	r.req.Close()
	r.cmd.Wait()
}

// call runs argv with stdin and returns its stdout, wall time in ms and
// peak RSS in KiB. A call that exits non-zero or answers with a JSON error
// is an error.
func (r *runner) call(argv []string, stdin []byte) ([]byte, float64, int64, error) {
	q := runRequest{Argv: argv, Stdout: filepath.Join(r.dir, "stdout"), Stderr: filepath.Join(r.dir, "stderr")}
	if stdin != nil {
		q.Stdin = filepath.Join(r.dir, "stdin")
		if err := os.WriteFile(q.Stdin, stdin, 0o644); err != nil {
			return nil, 0, 0, err
		}
	}
	line, _ := json.Marshal(q)
	if _, err := r.req.Write(append(line, '\n')); err != nil {
		return nil, 0, 0, fmt.Errorf("runner: %w", err)
	}
	text, err := r.resp.ReadBytes('\n')
	if err != nil {
		return nil, 0, 0, fmt.Errorf("runner: %w", err)
	}
	var a runResponse
	if err := json.Unmarshal(text, &a); err != nil {
		return nil, 0, 0, fmt.Errorf("runner: %w", err)
	}
	out, err := os.ReadFile(q.Stdout)
	if err != nil {
		return nil, 0, 0, err
	}
	name := strings.Join(argv[1:], " ")
	if a.Code != 0 {
		errb, _ := os.ReadFile(q.Stderr)
		return nil, 0, 0, fmt.Errorf("%s: exit %d %s: %s%s", name, a.Code, a.Err, errb, head(out))
	}
	if bytes.HasPrefix(bytes.TrimSpace(out), []byte(`{`)) && bytes.Contains(out[:min(len(out), 200)], []byte(`"error"`)) {
		return nil, 0, 0, fmt.Errorf("%s: %s", name, head(out))
	}
	return out, float64(a.NS) / 1e6, a.KB, nil
}

// serveRunner is the runner's side: one JSON request per line in, one
// response per line out, until its input ends.
func serveRunner(in io.Reader, out io.Writer) {
	// Collect early: a peak of garbage here would be every later call's
	// floor (see runner).
	debug.SetGCPercent(5)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var q runRequest
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			enc.Encode(runResponse{Code: -1, Err: err.Error()})
			continue
		}
		enc.Encode(runOne(q))
	}
}

func runOne(q runRequest) runResponse {
	if len(q.Argv) == 0 {
		return runResponse{Code: -1, Err: "no command"}
	}
	cmd := exec.Command(q.Argv[0], q.Argv[1:]...)
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	open := func(path string, create bool) (*os.File, error) {
		var f *os.File
		var err error
		if create {
			f, err = os.Create(path)
		} else {
			f, err = os.Open(path)
		}
		if err == nil {
			files = append(files, f)
		}
		return f, err
	}
	var err error
	if q.Stdin != "" {
		if cmd.Stdin, err = open(q.Stdin, false); err != nil {
			return runResponse{Code: -1, Err: err.Error()}
		}
	}
	if cmd.Stdout, err = open(q.Stdout, true); err != nil {
		return runResponse{Code: -1, Err: err.Error()}
	}
	if cmd.Stderr, err = open(q.Stderr, true); err != nil {
		return runResponse{Code: -1, Err: err.Error()}
	}
	t0 := time.Now()
	err = cmd.Run()
	a := runResponse{NS: time.Since(t0).Nanoseconds()}
	if err != nil {
		a.Code, a.Err = -1, err.Error()
		if cmd.ProcessState != nil {
			a.Code = cmd.ProcessState.ExitCode()
		}
	}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			a.KB = int64(ru.Maxrss)
			if runtime.GOOS == "darwin" {
				a.KB /= 1024 // bytes there
			}
		}
	}
	return a
}
