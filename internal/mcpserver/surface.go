package mcpserver

import (
	"context"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/toolexec"
	"github.com/unified-cognitive-substrate/ucs/outcome"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// The OpenSentience tool surface mapped onto ucs: each name but
// execute_action is another name of one operation, with its schema and its
// answer.
var aliases = []struct{ name, op, summary string }{
	{"session_start", "resume", "Start or resume a session: where the agent is, its active goals, what to do first"},
	{"goal_register", "goal add", "Register a goal: what to achieve, when it counts as done, how many failures it tolerates"},
	{"goal_status", "goal show", "A goal's status: state, progress towards completion, retries left, last outcome"},
	{"report_outcome_manual", "rate", "A person's verdict on an earlier action (by its journal sequence number): the strongest evidence"},
	{"coverage_check", "coverage", "How ready the memory is for a task: a score, the gaps, a recommendation"},
}

// outputKeep is how much of the end of each of the tool's streams
// execute_action returns.
const outputKeep = 16 << 10

// execSpec is execute_action's input, checked by the registry's rules
// (bridge.Spec.Check): the capability, the command as a list of words (no
// shell), and what ucs exec's flags say.
var execSpec = bridge.Spec{Op: contract.Op{
	Name:    "execute_action",
	Summary: "Run a tool command as an action: ucs checks the policy, runs it, classifies and learns the outcome",
	Long: `Runs command (a list: the program and its arguments, no shell) as the
capability action, with no stdin, stopped after timeout_ms (default: the
capability's declared timeout, else none). ucs classifies what it observably
did (timeout, killed, error, exit code, HTTP status, empty output, partial,
slow, success), judged by expect when the step's point is to fail, and
reports it, attributed to goal_id and to advisory_id (by default the last
consult of this session). The answer has its exit code, the
outcome, what ucs learned, and the last 16 KiB of its stdout and stderr. A
capability the policy refuses is not run: a tool error permission_denied.`,
	Mutating: true,
	Fields: []field.Field{
		{Name: "action", Type: field.String, Required: true, Doc: "the capability the command is (a name of the workspace's manifest)"},
		{Name: "command", Type: field.Strings, Required: true, Doc: "the program and its arguments, e.g. [\"make\", \"test\"]"},
		{Name: "goal_id", Type: field.String, Doc: "the goal the action works towards (goal_register)"},
		{Name: "advisory_id", Type: field.String, Doc: "the consult whose advice this follows (default: this session's last consult)"},
		{Name: "context", Type: field.String, Doc: "the task the action is part of"},
		{Name: "task", Type: field.String, Doc: "v5: the task's id (consult's task)"},
		{Name: "timeout_ms", Type: field.Int, Doc: "stop the command after this many milliseconds"},
		{Name: "expect", Type: field.Object, Doc: "when the step's point is to fail (reproducing a failing test): {\"failure\": true} makes a non-zero exit its success and exit 0 neutral; {\"exit_codes\": [1]} lists the exit codes that mean success (ucs exec's --expect-failure, --success-exit)"},
	},
	// The report's error, when it was not recorded, is an object under
	// "error": a tool error's member of that name is a string, so the
	// schema leaves its type open (recorded says which it is).
	Output: []field.Output{
		{Name: "action", Type: field.String, Always: true, Doc: "the capability the command ran as"},
		{Name: "exit_code", Type: field.Int, Always: true, Doc: "the command's exit code"},
		{Name: "duration_ms", Type: field.Int, Always: true, Doc: "how long it ran, in milliseconds"},
		{Name: "outcome", Type: field.String, Always: true, Doc: "the outcome ucs classified the run as, as report takes it"},
		{Name: "confidence", Type: field.Number, Always: true, Doc: "how sure the classification is, 0 to 1"},
		{Name: "rule", Type: field.String, Always: true, Doc: "the rule that classified it (timeout, killed, exit code, HTTP status, empty output...)"},
		{Name: "detail", Type: field.String, Always: true, Doc: "what the rule saw"},
		{Name: "expected", Type: field.String, Doc: "what the step was expected to do, when expect said it: \"a failure\", \"exit 1\""},
		{Name: "recorded", Type: field.Bool, Always: true, Doc: "the outcome was reported and learnt from (false: queued, or an error says why not)"},
		{Name: "queued", Type: field.Bool, Doc: "the workspace was busy: the next call that changes it applies the report"},
		{Name: "attribution", Type: field.String, Doc: "what the report taught of the transition"},
		{Name: "goal", Type: field.Object, Doc: "the goal the outcome was attributed to, and whether it changed"},
		{Name: "learning", Type: field.Object, Doc: "what the learned model (v3, v4) learnt from the outcome"},
		{Name: "output", Type: field.Object, Always: true, Doc: "the last 16 KiB of the command's stdout and stderr, their sizes, and whether they were cut"},
	},
}}

// executeAction runs a tool as ucs exec does, its streams captured.
func (s *server) executeAction(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	in, err := arguments(req)
	if err != nil {
		return failure(err), nil
	}
	c, err := execSpec.Check(in)
	if err != nil {
		return failure(err), nil
	}
	in = c.Input
	var argv []string
	cmd, _ := in.Get("command")
	for _, w := range cmd.Items() {
		argv = append(argv, w.Str())
	}
	if len(argv) == 0 || argv[0] == "" {
		return failure(&fault.Error{Kind: fault.KindBadInput, Code: fault.CodeMissingField, Msg: `field "command" is empty`,
			Hint: `give the program and its arguments, e.g. ["make", "test"]`}), nil
	}
	ms, _ := in.Get("timeout_ms")
	n, _ := ms.Int()
	if n < 0 {
		return failure(&fault.Error{Kind: fault.KindBadInput, Code: fault.CodeInvalidValue, Msg: "timeout_ms must not be negative",
			Hint: "give a number of milliseconds, or leave it out"}), nil
	}

	xv, _ := in.Get("expect")
	expect, err := outcome.ParseExpectation(xv)
	if err != nil {
		return failure(&fault.Error{Kind: fault.KindBadInput, Code: fault.CodeInvalidValue, Msg: err.Error(),
			Hint: `expect is {"failure": true} or {"exit_codes": [1, ...]}`}), nil
	}

	s.mu.Lock()
	in, attributed := s.ctx.attach(in)
	a := toolexec.Action{Capability: in.StrOf("action"), Goal: in.StrOf("goal_id"), Advisory: in.StrOf("advisory_id"),
		Context: in.StrOf("context"), Task: in.StrOf("task"), Command: argv, Expect: expect}
	var plan policy.ExecPlan
	var timeout time.Duration
	var refusal pyjson.Value
	err = s.run("exec", s.quiet(), func(b *bridge.Bridge) error {
		var err error
		plan, timeout, err = toolexec.Plan(b, a, time.Duration(n)*time.Millisecond)
		if err == nil && !plan.Decision.Allowed {
			refusal = toolexec.Refuse(b, a, plan)
		}
		return err
	})
	s.mu.Unlock()
	if err == nil && !plan.Decision.Allowed {
		return failureValue(refusal), nil
	}
	if err != nil {
		return failure(err), nil
	}

	// The tool runs outside the server's lock: other calls go on meanwhile.
	o := toolexec.Run(toolexec.Command{Argv: argv, Path: plan.Program.Path, Timeout: timeout, Keep: outputKeep})

	s.mu.Lock()
	defer s.mu.Unlock()
	var rep toolexec.Reported
	if err := s.run("report", s.quiet(), func(b *bridge.Bridge) error {
		rep = toolexec.Report(b, a, plan, o)
		return nil
	}); err != nil {
		return failure(err), nil
	}
	if attributed {
		s.ctx.used(in)
	}
	out := rep.Answer.With("output", pyjson.Obj(
		pyjson.KV("stdout", text(o.StdoutTail)), pyjson.KV("stderr", text(o.StderrTail)),
		pyjson.KV("stdout_bytes", o.StdoutBytes), pyjson.KV("stderr_bytes", o.StderrBytes),
		pyjson.KV("truncated", o.StdoutBytes > int64(len(o.StdoutTail)) || o.StderrBytes > int64(len(o.StderrTail)))))
	return success(out), nil
}

// quiet is the options of a call that prints nothing: the server's stdout
// is the protocol's.
func (s *server) quiet() bridge.Options {
	opts := s.opts
	opts.Output, opts.Timings, opts.Progress = nil, nil, nil
	return opts
}

// text is a tail of a stream as JSON text: a cut may split a character, and
// a tool may write any bytes.
func text(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }
