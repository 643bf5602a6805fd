package toolexec

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// Exit codes of a tool that did not run as a shell gives them.
const (
	ExitDenied   = int(fault.KindDenied) // 126, not allowed (the policy, or the file's permissions): "cannot execute"
	ExitNotFound = 127                   // the command does not exist
)

// termGrace is how long a timed-out tool has between SIGTERM and SIGKILL.
const termGrace = 2 * time.Second

// tailKeep is how much of the end of each stream the classifier reads.
const tailKeep = 4096

// A Command is one run of a tool.
type Command struct {
	Argv []string
	// Path is the file to run, as the plan resolved Argv[0]
	// (policy.ExecPlan's Program.Path): Run starts it without looking
	// Argv[0] up again, so a PATH or file changed after the check does not
	// change what runs. "": Argv[0] is looked up as exec.Command does.
	Path           string
	Stdin          io.Reader // nil: /dev/null
	Stdout, Stderr io.Writer // where the streams go (nil: discarded); their tails are kept anyway
	Timeout        time.Duration
	// Keep is how many bytes of the end of each stream the Observation
	// keeps (at least the classifier's 4 KiB).
	Keep int
	// ForwardSignals passes the interrupts ucs receives (SIGINT, SIGTERM,
	// SIGHUP, SIGQUIT) to the tool's process group, as a shell would.
	ForwardSignals bool
}

// An Observation is what a run of a tool showed.
type Observation struct {
	ExitCode                 int
	Signal                   string // the signal that ended it, if one did
	Err                      string // why it could not run or be waited for
	TimedOut                 bool
	Duration                 time.Duration
	Timeout                  time.Duration
	StdoutBytes, StderrBytes int64
	StdoutTail, StderrTail   string // the last Keep bytes of each
}

// Run runs the command in its own process group (a timeout stops all it
// started: SIGTERM, then SIGKILL after 2 s) and observes it. It never
// fails: a command that cannot start is an Observation with Err and exit
// 127 (126 when not permitted), its message written to Stderr.
func Run(c Command) (o Observation) {
	keep := max(c.Keep, tailKeep)
	stdout, stderr := newTail(c.Stdout, keep), newTail(c.Stderr, keep)
	o.Timeout = c.Timeout
	defer func() { // on every return: what the streams carried
		o.StdoutBytes, o.StderrBytes = stdout.n, stderr.n
		o.StdoutTail, o.StderrTail = stdout.String(), stderr.String()
	}()
	if len(c.Argv) == 0 {
		o.Err, o.ExitCode = "no command", ExitNotFound
		return o
	}
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	if c.Path != "" {
		cmd = exec.Command(c.Path, c.Argv[1:]...)
		cmd.Args[0] = c.Argv[0] // the tool sees its name as given
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Stdin, stdout, stderr
	if f, ok := c.Stdin.(*os.File); ok {
		cmd.Stdin = f // a file the child reads directly: no copy, and it sees EOF as the caller sends it
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		o.Duration = time.Since(start)
		o.Err = err.Error()
		o.ExitCode = ExitNotFound
		if errors.Is(err, os.ErrPermission) {
			o.ExitCode = ExitDenied
		}
		if c.Stderr != nil {
			fmt.Fprintf(c.Stderr, "ucs exec: %s\n", fault.OneLine(err.Error()))
		}
		return o
	}
	var sigs chan os.Signal
	if c.ForwardSignals {
		sigs = make(chan os.Signal, 4)
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
		defer signal.Stop(sigs)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var deadline <-chan time.Time
	if c.Timeout > 0 {
		t := time.NewTimer(c.Timeout)
		defer t.Stop()
		deadline = t.C
	}
	var kill <-chan time.Time
	var err error
wait:
	for {
		select {
		case err = <-done:
			break wait
		case s := <-sigs:
			syscall.Kill(-cmd.Process.Pid, s.(syscall.Signal))
		case <-deadline:
			o.TimedOut = true
			syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			kill = time.After(termGrace)
		case <-kill:
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}
	o.Duration = time.Since(start)
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		ws := ee.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			o.Signal = ws.Signal().String()
			o.ExitCode = 128 + int(ws.Signal())
		} else {
			o.ExitCode = ws.ExitStatus()
		}
	default:
		o.Err = err.Error()
		o.ExitCode = 1
	}
	return o
}

// Result is the observation as the classifier reads it.
func (o Observation) Result() outcome.Result {
	res := outcome.Result{Error: o.Err, DurationMS: o.Duration.Milliseconds(), TimeoutMS: o.Timeout.Milliseconds(),
		TimedOut: o.TimedOut, StdoutBytes: o.StdoutBytes, StderrBytes: o.StderrBytes,
		StdoutTail: lastBytes(o.StdoutTail, tailKeep), StderrTail: lastBytes(o.StderrTail, tailKeep)}
	if o.Signal != "" && !o.TimedOut {
		res.Signal = o.Signal
	}
	if o.Err == "" && o.Signal == "" {
		code := o.ExitCode
		res.ExitCode = &code
	}
	return res
}

func lastBytes(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// A tail passes bytes through (to nothing when w is nil) and keeps a
// count and the last keep.
type tail struct {
	w    io.Writer
	n    int64
	keep int
	buf  []byte
}

func newTail(w io.Writer, keep int) *tail { return &tail{w: w, keep: keep} }

func (t *tail) Write(p []byte) (int, error) {
	n, err := len(p), error(nil)
	if t.w != nil {
		n, err = t.w.Write(p)
	}
	t.n += int64(n)
	t.buf = append(t.buf, p[:n]...)
	if len(t.buf) > 2*t.keep {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.keep:]...)
	}
	return n, err
}

func (t *tail) String() string { return lastBytes(string(t.buf), t.keep) }
