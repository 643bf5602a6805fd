package cli

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/toolexec"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/outcome"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// ucs exec runs a tool as the agent would and reports what happened: the
// tool's stdin, stdout, stderr and exit code pass through unchanged, and
// ucs's own answer goes where the caller says (--result-fd, --result-file),
// else to one line on stderr. Bad ucs arguments are refused before
// anything runs; a capability the policy refuses never runs (exit 126); a
// workspace problem never stops the tool nor changes its exit code (the
// observation is queued, bridge.Observe).

func (st *state) execCommand() *cobra.Command {
	var action, goal, advisory, context, task, resultFile string
	var timeout time.Duration
	var resultFD int
	var async, expectFailure bool
	var successExit []int
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
exactly once by the next call that changes the workspace.

A step whose point is to fail (reproducing a failing test) says so:
--expect-failure makes a non-zero exit the step's success, --success-exit
lists the exit codes that do (0 only if listed). A run that passes when a
failure was expected is neutral: it teaches nothing about the step. A
timeout, a signal or a command that cannot start stays a failure.`,
		Example: `  ucs exec --action web_fetch -- curl -sS https://example.com/pricing
  ucs exec --action exec --goal g12 --timeout 30s --result-fd 3 -- make test 3>ucs.json
  ucs exec --action run_tests --expect-failure -- python3 -m pytest tests/test_parser.py`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() != 0 {
				return fmt.Errorf("put -- before the command: ucs exec --action CAPABILITY -- COMMAND [ARGS...]")
			}
			r := execRun{st: st, action: action, goal: goal, advisory: advisory, context: context, task: task,
				timeout: timeout, resultFD: resultFD, resultFile: resultFile, argv: args, async: async,
				expect: outcome.Expectation{Failure: expectFailure, ExitCodes: successExit}}
			return r.run()
		},
	}
	f := cmd.Flags()
	f.StringVar(&action, "action", "", "the capability the command is (a name of the workspace's manifest; required)")
	f.StringVar(&goal, "goal", "", "the goal the action works towards (goal add)")
	f.StringVar(&advisory, "advisory", "", "the consult whose advice this follows (its advisory_id)")
	f.StringVar(&context, "context", "", "the task the action is part of")
	f.StringVar(&task, "task", "", "v5: the task's id (consult's --task)")
	f.DurationVar(&timeout, "timeout", 0, "stop the command after this long (a Go duration; default: the capability's timeout_ms, else none)")
	f.IntVar(&resultFD, "result-fd", 0, "write ucs's answer (one JSON line) to this open file descriptor (3 or more)")
	f.StringVar(&resultFile, "result-file", "", "write ucs's answer (JSON) to this file")
	f.BoolVar(&async, "async", false, "only queue the observation (the next call that changes the workspace learns it): the least added time, no attribution in the answer")
	f.BoolVar(&expectFailure, "expect-failure", false, "the step's point is to fail (e.g. reproducing a failing test): a non-zero exit is its success, exit 0 is neutral")
	f.IntSliceVar(&successExit, "success-exit", nil, "the exit codes that mean success, comma-separated (0 only if listed), e.g. 1 for a test run that must fail")
	cmd.MarkFlagsMutuallyExclusive("expect-failure", "success-exit")
	cmd.MarkFlagRequired("action")
	return cmd
}

type execRun struct {
	st                                    *state
	action, goal, advisory, context, task string
	timeout                               time.Duration
	resultFD                              int
	resultFile                            string
	argv                                  []string
	async                                 bool
	expect                                outcome.Expectation
}

// run checks the call, runs the tool, reports it, and exits with the
// tool's exit code (errExit carries it to Run).
func (r *execRun) run() error {
	if r.resultFD != 0 && r.resultFD < 3 {
		return &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeInvalidValue, Msg: "--result-fd must be 3 or more",
			Hint: "0, 1 and 2 are the tool's stdin, stdout and stderr; open another descriptor, e.g. 3>file"}
	}
	if len(r.expect.ExitCodes) > 256 {
		return &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeInvalidValue, Msg: "--success-exit lists more than 256 exit codes",
			Hint: "list the exit codes that mean success, e.g. --success-exit 1"}
	}
	a := toolexec.Action{Capability: r.action, Goal: r.goal, Advisory: r.advisory, Context: r.context, Task: r.task, Async: r.async,
		Command: r.argv, Expect: r.expect}
	t0 := time.Now()
	// The plan and the report are two calls on the workspace (in a store,
	// two transactions): the tool runs between them, holding nothing.
	var plan policy.ExecPlan
	var timeout time.Duration
	denied := false
	err := r.st.withBridge("exec", func(b *bridge.Bridge) error {
		var err error
		if plan, timeout, err = toolexec.Plan(b, a, r.timeout); err != nil {
			return err
		}
		if !plan.Decision.Allowed {
			denied = true
			fmt.Fprintf(r.st.env.Stderr, "%s\n", fault.JSONLine(pyjson.AppendDumps(nil, toolexec.Refuse(b, a, plan))))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if denied {
		return errExit(toolexec.ExitDenied)
	}
	tPlan := time.Since(t0)
	o := toolexec.Run(toolexec.Command{Argv: r.argv, Path: plan.Program.Path, Stdin: r.st.env.Stdin, Stdout: r.st.env.Stdout, Stderr: r.st.env.Stderr,
		Timeout: timeout, ForwardSignals: true})
	t1 := time.Now()
	var rep toolexec.Reported
	if err := r.st.withBridge("report", func(b *bridge.Bridge) error {
		rep = toolexec.Report(b, a, plan, o)
		return nil
	}); err != nil {
		// A store that cannot be reached: the tool ran, its exit code
		// stands; the observation is lost, and said so.
		fmt.Fprintf(r.st.env.Stderr, "ucs: the outcome was not recorded: %s\n", oneLine(fault.AsError(err).Msg))
		return errExit(o.ExitCode)
	}
	if r.st.env.Getenv("UCS_TIMINGS") == "1" {
		fmt.Fprintf(r.st.env.Stderr, "ucs: timings exec: plan %.3fms; tool %.3fms; observe %.3fms\n",
			ms(tPlan), ms(o.Duration), ms(time.Since(t1)))
	}
	r.answer(rep)
	return errExit(o.ExitCode)
}

// answer says what ucs made of it, where the caller asked.
func (r *execRun) answer(rep toolexec.Reported) {
	data := pyjson.AppendDumps(nil, rep.Answer)
	switch {
	case r.resultFD >= 3:
		f := os.NewFile(uintptr(r.resultFD), "result-fd")
		if _, werr := f.Write(append(data, '\n')); werr != nil {
			fmt.Fprintf(r.st.env.Stderr, "%s\n", oneLine(fmt.Sprintf("%s (cannot write --result-fd %d: %v)", rep.Line, r.resultFD, werr)))
		}
	case r.resultFile != "":
		// Private and never through a link, as a page of view: the
		// answer holds what the workspace holds.
		if werr := workspace.WritePrivate(r.resultFile, append(data, '\n')); werr != nil {
			fmt.Fprintf(r.st.env.Stderr, "%s\n", oneLine(fmt.Sprintf("%s (cannot write --result-file: %v)", rep.Line, werr)))
		}
	default:
		fmt.Fprintln(r.st.env.Stderr, oneLine(rep.Line))
	}
}

// errExit is an exit code a command returns as its error: Run exits with
// it, printing nothing more.
type errExit int

func (e errExit) Error() string { return "exit " + strconv.Itoa(int(e)) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
