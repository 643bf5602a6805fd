package cli

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// ucs exec runs a tool as the agent would and reports what happened: the
// tool's stdin, stdout, stderr and exit code pass through unchanged, and
// ucs's own answer goes where the caller says (--result-fd, --result-file),
// else to one line on stderr. Bad ucs arguments are refused before
// anything runs; a capability the policy refuses never runs (exit 126); a
// workspace problem never stops the tool nor changes its exit code (the
// observation is queued, bridge.Observe).

// Exit codes of exec besides the tool's own, as a shell gives them.
const (
	exitDenied   = 126 // the policy refuses the capability: "cannot execute"
	exitNotFound = 127 // the command does not exist
	termGrace    = 2 * time.Second
)

func (st *state) execCommand() *cobra.Command {
	var action, goal, advisory, context, resultFile string
	var timeout time.Duration
	var resultFD int
	var async bool
	cmd := &cobra.Command{
		Use:   "exec --action CAPABILITY [flags] -- COMMAND [ARGS...]",
		Short: "Run a tool command and learn from what it observably did",
		Long: `Runs COMMAND as the agent would: its stdin, stdout, stderr and exit code pass
through unchanged. ucs measures it, classifies the outcome by deterministic
rules (timeout, killed, error, exit code, HTTP status, empty output, partial
signal, slow success, success), reports it as the capability --action, and
says what it learned on --result-fd, in --result-file, or else in one line on
stderr. A capability the workspace's policy refuses is not run (exit 126, a
JSON error on stderr, a journaled policy block). When the workspace is busy
or needs recovery the tool still runs and the observation is queued, applied
exactly once by the next call that changes the workspace.`,
		Example: `  ucs exec --action web_fetch -- curl -sS https://example.com/pricing
  ucs exec --action exec --goal g12 --timeout 30s --result-fd 3 -- make test 3>ucs.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() != 0 {
				return fmt.Errorf("put -- before the command: ucs exec --action CAPABILITY -- COMMAND [ARGS...]")
			}
			r := execRun{st: st, action: action, goal: goal, advisory: advisory, context: context,
				timeout: timeout, resultFD: resultFD, resultFile: resultFile, argv: args, async: async}
			return r.run()
		},
	}
	f := cmd.Flags()
	f.StringVar(&action, "action", "", "the capability the command is (a name of the workspace's manifest; required)")
	f.StringVar(&goal, "goal", "", "the goal the action works towards (goal add)")
	f.StringVar(&advisory, "advisory", "", "the consult whose advice this follows (its advisory_id)")
	f.StringVar(&context, "context", "", "the task the action is part of")
	f.DurationVar(&timeout, "timeout", 0, "stop the command after this long (a Go duration; default: the capability's timeout_ms, else none)")
	f.IntVar(&resultFD, "result-fd", 0, "write ucs's answer (one JSON line) to this open file descriptor (3 or more)")
	f.StringVar(&resultFile, "result-file", "", "write ucs's answer (JSON) to this file")
	f.BoolVar(&async, "async", false, "only queue the observation (the next call that changes the workspace learns it): the least added time, no attribution in the answer")
	cmd.MarkFlagRequired("action")
	return cmd
}

type execRun struct {
	st                                  *state
	action, goal, advisory, context     string
	timeout                             time.Duration
	resultFD                            int
	resultFile                          string
	argv                                []string
	async                               bool
	stdoutTail, stderrTail              *tailWriter
	exitCode                            int
	signal, runErr                      string
	timedOut                            bool
	duration                            time.Duration
	stdoutBytes, stderrBytes, timeoutMS int64
}

// run checks the call, runs the tool, reports it, and exits with the
// tool's exit code (errExit carries it to Run).
func (r *execRun) run() error {
	if r.resultFD != 0 && r.resultFD < 3 {
		return &bridge.Error{Kind: bridge.KindBadInput, Code: "invalid_value", Msg: "--result-fd must be 3 or more",
			Hint: "0, 1 and 2 are the tool's stdin, stdout and stderr; open another descriptor, e.g. 3>file"}
	}
	b, err := r.st.bridgeFor()
	if err != nil {
		return err
	}
	t0 := time.Now()
	plan, err := b.PlanExec(r.action, r.goal)
	if err != nil {
		return err
	}
	if !plan.Decision.Allowed {
		return r.refuse(b, plan)
	}
	if r.timeout == 0 && plan.Declaration.TimeoutMS > 0 {
		r.timeout = time.Duration(plan.Declaration.TimeoutMS) * time.Millisecond
	}
	r.timeoutMS = r.timeout.Milliseconds()
	tPlan := time.Since(t0)
	r.execute()
	t1 := time.Now()
	res := r.result()
	v := outcome.Classify(res, plan.Rules)
	summary := outcome.Summarize(res).JSON()
	in := []pyjson.Member{pyjson.KV("action", r.action), pyjson.KV("result", summary), pyjson.KV("request_id", newExecID())}
	for _, kv := range [][2]string{{"goal_id", r.goal}, {"advisory_id", r.advisory}, {"context", r.context}} {
		if kv[1] != "" {
			in = append(in, pyjson.KV(kv[0], kv[1]))
		}
	}
	call := bridge.Call{Op: "report", Args: pyjson.Obj(), Input: pyjson.ObjectValue(in)}
	var answer pyjson.Value
	var queued bool
	if r.async {
		err, queued = b.QueueCall(call), true
	} else {
		answer, queued, err = b.Observe(call)
	}
	if r.st.env.Getenv("UCS_TIMINGS") == "1" {
		fmt.Fprintf(r.st.env.Stderr, "ucs: timings exec: plan %.3fms; tool %.3fms; observe %.3fms\n",
			ms(tPlan), ms(r.duration), ms(time.Since(t1)))
	}
	r.answer(v, answer, queued, err)
	return errExit(r.exitCode)
}

// refuse records a policy block and answers on stderr, without running.
func (r *execRun) refuse(b *bridge.Bridge, plan bridge.ExecPlan) error {
	missing := make([]string, len(plan.Decision.Missing))
	for i, p := range plan.Decision.Missing {
		missing[i] = p.String()
	}
	block := bridge.Call{Op: "policy block", Args: pyjson.Obj(pyjson.KV("capability", r.action),
		pyjson.KV("missing", missing), pyjson.KV("reason", plan.Decision.Reason), pyjson.KV("command", r.argv)),
		Input: pyjson.Obj(pyjson.KV("request_id", newExecID()))}
	_, queued, oerr := b.Observe(block)
	e := pyjson.Obj(pyjson.KV("error", "the policy refuses "+r.action+": it needs "+strings.Join(missing, ", ")),
		pyjson.KV("code", "permission_denied"),
		pyjson.KV("hint", "grant what it needs (ucs policy grant PERMISSION) or use another capability"),
		pyjson.KV("missing", missing), pyjson.KV("journaled", oerr == nil && !queued), pyjson.KV("queued", queued))
	fmt.Fprintf(r.st.env.Stderr, "%s\n", pyjson.AppendDumps(nil, e))
	return errExit(exitDenied)
}

// execute runs the command with the caller's stdio, a timeout and the
// signals forwarded, and records what it observed.
func (r *execRun) execute() {
	c := exec.Command(r.argv[0], r.argv[1:]...)
	r.stdoutTail, r.stderrTail = newTailWriter(r.st.env.Stdout), newTailWriter(r.st.env.Stderr)
	c.Stdin, c.Stdout, c.Stderr = r.st.env.Stdin, r.stdoutTail, r.stderrTail
	if f, ok := r.st.env.Stdin.(*os.File); ok {
		c.Stdin = f // a file the child reads directly: no copy, and it sees EOF as the caller sends it
	}
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its own group: a timeout stops all it started
	start := time.Now()
	if err := c.Start(); err != nil {
		r.duration = time.Since(start)
		r.runErr = err.Error()
		r.exitCode = exitNotFound
		if errors.Is(err, os.ErrPermission) {
			r.exitCode = exitDenied
		}
		fmt.Fprintf(r.st.env.Stderr, "ucs exec: %v\n", err)
		return
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	var deadline <-chan time.Time
	if r.timeout > 0 {
		t := time.NewTimer(r.timeout)
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
			syscall.Kill(-c.Process.Pid, s.(syscall.Signal))
		case <-deadline:
			r.timedOut = true
			syscall.Kill(-c.Process.Pid, syscall.SIGTERM)
			kill = time.After(termGrace)
		case <-kill:
			syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		}
	}
	r.duration = time.Since(start)
	r.stdoutBytes, r.stderrBytes = r.stdoutTail.n, r.stderrTail.n
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		ws := ee.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			r.signal = ws.Signal().String()
			r.exitCode = 128 + int(ws.Signal())
		} else {
			r.exitCode = ws.ExitStatus()
		}
	default:
		r.runErr = err.Error()
		r.exitCode = 1
	}
}

// result is the observation for the classifier.
func (r *execRun) result() outcome.Result {
	res := outcome.Result{Error: r.runErr, DurationMS: r.duration.Milliseconds(), TimeoutMS: r.timeoutMS,
		TimedOut: r.timedOut, StdoutBytes: r.stdoutBytes, StderrBytes: r.stderrBytes}
	if r.signal != "" && !r.timedOut {
		res.Signal = r.signal
	}
	if r.runErr == "" && r.signal == "" {
		code := r.exitCode
		res.ExitCode = &code
	}
	if r.stdoutTail != nil {
		res.StdoutTail, res.StderrTail = r.stdoutTail.String(), r.stderrTail.String()
	}
	return res
}

// answer says what ucs made of it, where the caller asked.
func (r *execRun) answer(v outcome.Verdict, answer pyjson.Value, queued bool, err error) {
	out := pyjson.Obj(pyjson.KV("action", r.action), pyjson.KV("exit_code", r.exitCode),
		pyjson.KV("duration_ms", r.duration.Milliseconds()),
		pyjson.KV("outcome", v.Status), pyjson.KV("confidence", v.Confidence), pyjson.KV("rule", v.Rule), pyjson.KV("detail", v.Detail))
	line := fmt.Sprintf("ucs: %s %s (%.2f, %s)", r.action, v.Status, v.Confidence, v.Rule)
	switch {
	case err != nil:
		e := bridge.AsError(err)
		out = out.With("recorded", false).With("error", pyjson.Obj(pyjson.KV("error", e.Msg), pyjson.KV("code", e.Code), pyjson.KV("hint", e.Hint)))
		line += "; not recorded: " + oneLine(e.Msg)
	case queued && r.async:
		out = out.With("recorded", false).With("queued", true)
		line += "; queued: the next call that changes the workspace learns it"
	case queued:
		out = out.With("recorded", false).With("queued", true)
		line += "; queued: the workspace is busy, the next call that changes it applies this"
	default:
		out = out.With("recorded", true)
		if a := attribution(answer); a != "" {
			out = out.With("attribution", a)
			line += "; " + a
		}
		if g, ok := answer.Get("goal"); ok {
			out = out.With("goal", g)
		}
		if l, ok := answer.Get("learning"); ok {
			out = out.With("learning", l)
		}
	}
	data := pyjson.AppendDumps(nil, out)
	switch {
	case r.resultFD >= 3:
		f := os.NewFile(uintptr(r.resultFD), "result-fd")
		if _, werr := f.Write(append(data, '\n')); werr != nil {
			fmt.Fprintf(r.st.env.Stderr, "%s (cannot write --result-fd %d: %v)\n", line, r.resultFD, werr)
		}
	case r.resultFile != "":
		if werr := os.WriteFile(r.resultFile, append(data, '\n'), 0o600); werr != nil {
			fmt.Fprintf(r.st.env.Stderr, "%s (cannot write --result-file: %v)\n", line, werr)
		}
	default:
		fmt.Fprintln(r.st.env.Stderr, line)
	}
}

// attribution summarizes what the report taught: the transition's
// successes in all contexts before and after, and its estimate.
func attribution(answer pyjson.Value) string {
	l, ok := answer.Get("learning")
	if !ok {
		return ""
	}
	tr, _ := l.Get("transition")
	pb, _ := l.Get("p_before")
	pa, _ := l.Get("p_after")
	fb, _ := pb.Float()
	fa, _ := pa.Float()
	s := tr.Str() + ": p(success) " + strconv.FormatFloat(fb, 'f', 2, 64) + " → " + strconv.FormatFloat(fa, 'f', 2, 64)
	if eb, ok := l.Get("evidence_before"); ok {
		ea, _ := l.Get("evidence_after")
		s += ", " + counts(eb) + " → " + counts(ea)
	}
	return s
}

func counts(v pyjson.Value) string {
	sx, _ := v.Get("successes")
	nx, _ := v.Get("of")
	a, _ := sx.Float()
	b, _ := nx.Float()
	return strconv.FormatFloat(a, 'f', -1, 64) + "/" + strconv.FormatFloat(b, 'f', -1, 64)
}

// newExecID is a fresh request_id for an observation: random, recorded
// in the journal with the report.
func newExecID() string {
	var b [12]byte
	rand.Read(b[:])
	return "exec-" + hex.EncodeToString(b[:])
}

// A tailWriter passes bytes through and keeps a count and the last tailKeep.
type tailWriter struct {
	w    io.Writer
	n    int64
	tail []byte
}

const tailKeep = 4096

func newTailWriter(w io.Writer) *tailWriter { return &tailWriter{w: w} }

func (t *tailWriter) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	t.n += int64(n)
	t.tail = append(t.tail, p[:n]...)
	if len(t.tail) > 2*tailKeep {
		t.tail = append(t.tail[:0], t.tail[len(t.tail)-tailKeep:]...)
	}
	return n, err
}

func (t *tailWriter) String() string {
	if len(t.tail) > tailKeep {
		return string(t.tail[len(t.tail)-tailKeep:])
	}
	return string(t.tail)
}

// errExit is an exit code a command returns as its error: Run exits with
// it, printing nothing more.
type errExit int

func (e errExit) Error() string { return "exit " + strconv.Itoa(int(e)) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
