package toolexec

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// An Action is what the agent says a tool run is.
type Action struct {
	Capability string // a capability of the workspace's manifest
	Goal       string // the goal it works towards, or ""
	Advisory   string // the consult whose advice it follows, or ""
	Context    string // the task it is part of, or ""
	Task       string // the task's id (v5: consult's task), or ""
	// Command is the command line the run starts: Plan judges its
	// program, and a refusal records it.
	Command []string
	// Async only queues the observation (the next call that changes the
	// workspace learns it).
	Async bool
	// Expect is what the run is for when its point is to fail (an
	// expected failure, or the exit codes that mean success): the report
	// carries it, and the verdict is judged by it.
	Expect outcome.Expectation
}

// Plan refuses an action whose words are not UTF-8 (invalid_utf8),
// resolves the program its command starts (Resolve), checks the action and
// the program against the workspace (planExec), and returns the
// plan and the timeout to run it with: timeout, else the capability's
// declared timeout_ms, else none. Run the plan's Program.Path, so what was
// checked is what runs.
func Plan(b *bridge.Bridge, a Action, timeout time.Duration) (policy.ExecPlan, time.Duration, error) {
	for _, f := range [][2]string{{"action", a.Capability}, {"goal", a.Goal}, {"advisory", a.Advisory}, {"context", a.Context}, {"task", a.Task}} {
		if !utf8.ValidString(f[1]) {
			// The report would carry it, and JSON holds only text: refused
			// before anything runs, never an observation that cannot be
			// recorded.
			return policy.ExecPlan{}, 0, &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeInvalidUTF8,
				Msg: "the " + f[0] + " is not valid UTF-8", Hint: "give the " + f[0] + " as UTF-8 text"}
		}
	}
	var name string
	if len(a.Command) > 0 {
		name = a.Command[0]
	}
	plan, err := planExec(b, a.Capability, a.Goal, Resolve(name))
	if err != nil {
		return plan, 0, err
	}
	if timeout == 0 && plan.Declaration.TimeoutMS > 0 {
		timeout = time.Duration(plan.Declaration.TimeoutMS) * time.Millisecond
	}
	return plan, timeout, nil
}

// Refuse records that the policy refused the action (a journaled policy
// block, queued if the workspace is busy) and returns the error object
// to answer with: code permission_denied, the permissions missing.
func Refuse(b *bridge.Bridge, a Action, plan policy.ExecPlan) pyjson.Value {
	missing := make([]string, len(plan.Decision.Missing))
	for i, p := range plan.Decision.Missing {
		missing[i] = p.String()
	}
	block := bridge.Call{Op: "policy block", Args: pyjson.Obj(pyjson.KV("capability", a.Capability),
		pyjson.KV("missing", missing), pyjson.KV("reason", plan.Decision.Reason), pyjson.KV("command", field.EncodeArgv(a.Command))),
		Input: pyjson.Obj(pyjson.KV("request_id", NewID()))}
	if plan.PolicyFile.Kind() == pyjson.Object {
		block.Input = block.Input.With("policy_file", plan.PolicyFile)
	}
	_, queued, err := b.Observe(block)
	return pyjson.Obj(pyjson.KV("error", "the policy refuses "+a.Capability+": "+plan.Decision.Reason),
		pyjson.KV("code", fault.CodePermissionDenied),
		pyjson.KV("hint", "declare what it needs in its manifest entry (\"permissions\", with a proc:exec permission for the program it runs), "+
			"grant it (ucs policy grant PERMISSION), or use another capability"),
		pyjson.KV("missing", missing), pyjson.KV("journaled", err == nil && !queued), pyjson.KV("queued", queued))
}

// A Reported is what became of an observation.
type Reported struct {
	Verdict outcome.Verdict
	// Answer is ucs's answer: the action, exit code, duration, outcome,
	// confidence, rule and detail; then recorded (and the learning, the
	// attribution and the goal), or queued, or the error that kept it
	// from being recorded.
	Answer pyjson.Value
	// Line is the answer in one line for people.
	Line string
}

// Report classifies the observation with the plan's rules, judges the
// verdict by the action's expectation (outcome.Expectation.Judge), and
// reports it as the action (a report with a fresh request_id, through the pending
// queue: bridge.Observe). A workspace problem is in the answer, never an
// error: the tool ran.
func Report(b *bridge.Bridge, a Action, plan policy.ExecPlan, o Observation) Reported {
	res := o.Result()
	v := a.Expect.Judge(res, outcome.Classify(res, plan.Declaration.Rules))
	in := []pyjson.Member{pyjson.KV("action", a.Capability), pyjson.KV("result", outcome.Summarize(res).JSON()),
		pyjson.KV("request_id", NewID())}
	if !a.Expect.IsZero() {
		// In the journal's report: verify judges the result by it again.
		in = append(in, pyjson.KV("expect", a.Expect.JSON()))
	}
	for _, kv := range [][2]string{{"goal_id", a.Goal}, {"advisory_id", a.Advisory}, {"context", a.Context}, {"task", a.Task}} {
		if kv[1] != "" {
			in = append(in, pyjson.KV(kv[0], kv[1]))
		}
	}
	call := bridge.Call{Op: "report", Args: pyjson.Obj(), Input: pyjson.ObjectValue(in)}
	var answer pyjson.Value
	var queued bool
	var err error
	if a.Async {
		err, queued = b.QueueCall(call), true
	} else {
		answer, queued, err = b.Observe(call)
	}
	out := pyjson.Obj(pyjson.KV("action", a.Capability), pyjson.KV("exit_code", o.ExitCode),
		pyjson.KV("duration_ms", o.Duration.Milliseconds()),
		pyjson.KV("outcome", v.Status.String()), pyjson.KV("confidence", v.Confidence), pyjson.KV("rule", v.Rule), pyjson.KV("detail", v.Detail))
	if !a.Expect.IsZero() {
		out = out.With("expected", a.Expect.String())
	}
	line := "ucs: " + a.Capability + " " + v.Status.String() + " (" + strconv.FormatFloat(v.Confidence, 'f', 2, 64) + ", " + v.Rule + ")"
	if !a.Expect.IsZero() {
		line += "; " + v.Detail
	}
	switch {
	case err != nil:
		e := fault.AsError(err)
		out = out.With("recorded", false).With("error", pyjson.Obj(pyjson.KV("error", e.Msg), pyjson.KV("code", e.Code), pyjson.KV("hint", e.Hint)))
		line += "; not recorded: " + strings.Join(strings.Fields(e.Msg), " ")
	case queued && a.Async:
		out = out.With("recorded", false).With("queued", true)
		line += "; queued: the next call that changes the workspace learns it"
	case queued:
		out = out.With("recorded", false).With("queued", true)
		line += "; queued: the workspace is busy, the next call that changes it applies this"
	default:
		out = out.With("recorded", true)
		if at := Attribution(answer); at != "" {
			out = out.With("attribution", at)
			line += "; " + at
		}
		if g, ok := answer.Get("goal"); ok {
			out = out.With("goal", g)
		}
		if l, ok := answer.Get("learning"); ok {
			out = out.With("learning", l)
		}
	}
	return Reported{Verdict: v, Answer: out, Line: line}
}

// Attribution summarizes what a report taught: the transition's
// successes in all contexts before and after, and its estimate ("" when
// the answer has no learning).
func Attribution(answer pyjson.Value) string {
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

// NewID is a fresh request_id for an observation: random, recorded in the
// journal with the report.
func NewID() string {
	var b [12]byte
	rand.Read(b[:])
	return "exec-" + hex.EncodeToString(b[:])
}
