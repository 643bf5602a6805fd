package learnbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/cli"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The simulated clock: every call to ucs happens ClockStep after the
// previous one, from ClockStart, so runs are deterministic (UCS_NOW).
var (
	ClockStart = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	ClockStep  = time.Minute
)

// A Learner is one ucs workspace, driven the way an agent drives it.
type Learner interface {
	// Consult runs `ucs consult --context TEXT`.
	Consult(context string) (Advice, error)
	// Report runs `ucs report` with {"action", "success"} and, when not
	// empty, "context"; it returns the cursor after the report.
	Report(action, success, context string) (string, error)
	// Exec runs `ucs exec --action ACTION --context TEXT -- sh -c 'exit N'`:
	// a simulated tool whose exit code carries the step's true outcome, so
	// ucs observes it instead of being told. It returns the cursor after.
	Exec(action string, ok bool, context string) (string, error)
	// Cursor runs `ucs status` and returns the cursor (init's warm-up
	// moves it from the manifest's first capability).
	Cursor() (string, error)
	// Fork copies the workspace to dir (without snapshots and backups) and
	// returns a learner on the copy, its clock where this one's is.
	Fork(dir string) (Learner, error)
	// Task names the task the next calls are part of (consult --task,
	// report and exec's task); "" for none.
	Task(id string)
}

// Advice is what a consult answered: the cursor it advised from, and the
// capabilities its suggested paths lead to, in order.
type Advice struct {
	Cursor string
	Next   []string
}

// A Driver creates learners on new workspaces.
type Driver interface {
	// Init runs `ucs init --manifest PATH` plus the driver's init
	// arguments on a new workspace dir.
	Init(dir, manifest string) (Learner, error)
	// Describe says how ucs is driven, for the results.
	Describe() string
}

// InProcess drives the bridge in this process. Init runs the command line
// itself (internal/cli), so InitArgs are parsed exactly as the binary
// parses them and Env is what init sees; consult and report call
// bridge.Do with the Args and Input the command line forms.
type InProcess struct {
	InitArgs []string
	Env      []string // KEY=VALUE, seen by init only
}

// Binary drives a ucs binary, one process per call, UCS_NOW set from the
// simulated clock and Env added to every call's environment.
type Binary struct {
	Path     string
	InitArgs []string
	Env      []string
}

func (d InProcess) Describe() string {
	return strings.TrimSpace("in process " + strings.Join(d.InitArgs, " "))
}

func (d Binary) Describe() string {
	return strings.TrimSpace("binary " + d.Path + " " + strings.Join(d.InitArgs, " "))
}

func initCommand(dir, manifest string, extra []string) []string {
	return append([]string{"--workspace", dir, "init", "--manifest", manifest}, extra...)
}

func lookupEnv(env []string, now time.Time) func(string) string {
	return func(k string) string {
		if k == "UCS_NOW" {
			return now.Format(time.RFC3339)
		}
		for _, kv := range env {
			if key, v, ok := strings.Cut(kv, "="); ok && key == k {
				return v
			}
		}
		return ""
	}
}

func (d InProcess) Init(dir, manifest string) (Learner, error) {
	l := &inProcess{dir: dir, clock: ClockStart}
	var stdout, stderr bytes.Buffer
	code := cli.Run(initCommand(dir, manifest, d.InitArgs), cli.Env{Stdin: strings.NewReader(""), Stdout: &stdout,
		Stderr: &stderr, Getenv: lookupEnv(d.Env, l.tick())})
	if code != 0 {
		return nil, fmt.Errorf("ucs init (exit %d): %s", code, strings.TrimSpace(stderr.String()))
	}
	return l, nil
}

type inProcess struct {
	dir   string
	clock time.Time
	task  string
	// peers are the other agents' workspaces of a fleet (the fleet mode),
	// each call's bridge's peers (bridge.Bridge.AddPeer).
	peers []string
}

func (l *inProcess) Task(id string) { l.task = id }

func (l *inProcess) tick() time.Time {
	l.clock = l.clock.Add(ClockStep)
	return l.clock
}

func (l *inProcess) do(c bridge.Call) (pyjson.Value, error) {
	b := bridge.New(bridge.Options{Workspace: l.dir, Now: l.tick()})
	for i, dir := range l.peers {
		b.AddPeer("agent-"+strconv.Itoa(i), dir)
	}
	out, err := b.Do(c)
	if err != nil {
		return out, fmt.Errorf("ucs %s: %w", c.Op, err)
	}
	return out, nil
}

func (l *inProcess) Consult(context string) (Advice, error) {
	// As internal/cli forms it: the flags as Args, no input.
	args := pyjson.Obj(pyjson.KV("context", context), pyjson.KV("capabilities", nil))
	if l.task != "" {
		args = args.With("task", l.task)
	}
	out, err := l.do(bridge.Call{Op: "consult", Input: pyjson.NullValue(), Args: args})
	if err != nil {
		return Advice{}, err
	}
	var a Advice
	if v, ok := out.Get("cursor"); ok {
		a.Cursor = v.Str()
	}
	if v, ok := out.Get("suggested_paths"); ok {
		for _, p := range v.Items() {
			if to, ok := p.Get("to"); ok {
				a.Next = append(a.Next, to.Str())
			}
		}
	}
	return a, nil
}

func (l *inProcess) Report(action, success, context string) (string, error) {
	// As internal/cli forms it: stdin parsed by field.ParseInput, no Args.
	input, err := field.ParseInput(reportInput(action, success, context, l.task))
	if err != nil {
		return "", err
	}
	out, err := l.do(bridge.Call{Op: "report", Args: pyjson.Obj(), Input: input})
	if err != nil {
		return "", err
	}
	if v, ok := out.Get("cursor"); ok {
		return v.Str(), nil
	}
	return action, nil
}

func (l *inProcess) Exec(action string, ok bool, context string) (string, error) {
	var stdout, stderr bytes.Buffer
	code := cli.Run(execCommand(l.dir, action, ok, context, l.task), cli.Env{Stdin: strings.NewReader(""), Stdout: &stdout,
		Stderr: &stderr, Getenv: lookupEnv(nil, l.tick())})
	if want := exitOf(ok); code != want {
		return "", fmt.Errorf("ucs exec (exit %d, want %d): %s", code, want, strings.TrimSpace(stderr.String()))
	}
	return action, nil
}

// execCommand is the command line of an observed step, and exitOf the
// exit code of its tool.
func execCommand(dir, action string, ok bool, context, task string) []string {
	args := []string{"--workspace", dir, "exec", "--action", action, "--context", context, "--result-file", os.DevNull}
	if task != "" {
		args = append(args, "--task", task)
	}
	return append(args, "--", "sh", "-c", "exit "+strconv.Itoa(exitOf(ok)))
}

func exitOf(ok bool) int {
	if ok {
		return 0
	}
	return 1
}

func (l *inProcess) Cursor() (string, error) {
	out, err := l.do(bridge.Call{Op: "status", Args: pyjson.Obj(), Input: pyjson.NullValue()})
	if err != nil {
		return "", err
	}
	v, _ := out.Get("cursor")
	return v.Str(), nil
}

func (l *inProcess) Fork(dir string) (Learner, error) {
	if err := copyWorkspace(l.dir, dir); err != nil {
		return nil, err
	}
	return &inProcess{dir: dir, clock: l.clock}, nil
}

// reportInput is the JSON an agent pipes into `ucs report`.
func reportInput(action, success, context, task string) []byte {
	in := map[string]string{"action": action, "success": success}
	if context != "" {
		in["context"] = context
	}
	if task != "" {
		in["task"] = task
	}
	b, _ := json.Marshal(in) // sorted keys
	return b
}

func (d Binary) Init(dir, manifest string) (Learner, error) {
	l := &binary{d: d, dir: dir, clock: ClockStart}
	if _, err := l.run(nil, initCommand(dir, manifest, d.InitArgs)...); err != nil {
		return nil, err
	}
	return l, nil
}

type binary struct {
	d     Binary
	dir   string
	clock time.Time
	task  string
}

func (l *binary) Task(id string) { l.task = id }

// run runs one ucs process and returns its stdout.
func (l *binary) run(stdin []byte, args ...string) ([]byte, error) {
	l.clock = l.clock.Add(ClockStep)
	cmd := exec.Command(l.d.Path, args...)
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "UCS_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(append(env, "UCS_NOW="+l.clock.Format(time.RFC3339)), l.d.Env...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %v: %s", l.d.Path, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

type consultOut struct {
	Cursor string `json:"cursor"`
	Paths  []struct {
		To string `json:"to"`
	} `json:"suggested_paths"`
}

func (l *binary) Consult(context string) (Advice, error) {
	args := []string{"--workspace", l.dir, "consult", "--context", context}
	if l.task != "" {
		args = append(args, "--task", l.task)
	}
	out, err := l.run(nil, args...)
	if err != nil {
		return Advice{}, err
	}
	var c consultOut
	if err := json.Unmarshal(out, &c); err != nil {
		return Advice{}, fmt.Errorf("ucs consult: %v", err)
	}
	a := Advice{Cursor: c.Cursor}
	for _, p := range c.Paths {
		a.Next = append(a.Next, p.To)
	}
	return a, nil
}

func (l *binary) Exec(action string, ok bool, context string) (string, error) {
	_, err := l.run(nil, execCommand(l.dir, action, ok, context, l.task)...)
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == exitOf(ok) {
		err = nil
	}
	return action, err
}

func (l *binary) Report(action, success, context string) (string, error) {
	out, err := l.run(reportInput(action, success, context, l.task), "--workspace", l.dir, "report")
	if err != nil {
		return "", err
	}
	var r struct {
		Cursor *string `json:"cursor"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return "", fmt.Errorf("ucs report: %v", err)
	}
	if r.Cursor == nil {
		return action, nil
	}
	return *r.Cursor, nil
}

func (l *binary) Cursor() (string, error) {
	out, err := l.run(nil, "--workspace", l.dir, "status")
	if err != nil {
		return "", err
	}
	var r struct {
		Cursor string `json:"cursor"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return "", fmt.Errorf("ucs status: %v", err)
	}
	return r.Cursor, nil
}

func (l *binary) Fork(dir string) (Learner, error) {
	if err := copyWorkspace(l.dir, dir); err != nil {
		return nil, err
	}
	return &binary{d: l.d, dir: dir, clock: l.clock}, nil
}

// copyWorkspace copies a workspace for a probe: every file but the lock,
// the snapshots and the backups (which only verify and repair read).
func copyWorkspace(src, dst string) error {
	skip := map[string]bool{"ucs/state/snapshots": true, "ucs/state/backup": true, "ucs/state/lock": true}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if skip[filepath.ToSlash(rel)] {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

// CallCounts counts the calls a ucs policy made.
type CallCounts struct {
	Consults      int `json:"consults"`       // one per step
	Reports       int `json:"reports"`        // one per step: the outcome
	Positioning   int `json:"positioning"`    // neutral reports that move the cursor to where the agent is
	ProbeForks    int `json:"probe_forks"`    // workspace copies made by probes
	ProbeConsults int `json:"probe_consults"` // consults on those copies
	ProbeReports  int `json:"probe_reports"`  // positioning reports on those copies
}

// ucsPolicy follows ucs's advice: before each step it makes sure ucs's
// cursor is the agent's tool (a report with success "neutral" and no
// context moves it: at the start of an episode and after a failed step),
// consults with the episode's context, and with probability compliance
// takes the first suggestion (else, or without one, a random
// out-neighbour); after the step it reports the outcome with the context.
type ucsPolicy struct {
	w          *World
	l          Learner
	compliance float64
	feedback   string // "", "exec" or "honest" (PolicySpec.Feedback)
	r          *rand.Rand
	cursor     string
	calls      CallCounts
	scratch    string // directory for probe copies
	forks      int
}

func success(ok bool) string {
	if ok {
		return "success"
	}
	return "failure"
}

// Begin names the episode as the task the calls are part of (an agent
// knows when it starts a task), and forgets where ucs's cursor is, so
// that the episode's first step starts with the agent saying where it is.
func (p *ucsPolicy) Begin(st *State) error {
	p.l.Task("e" + strconv.Itoa(st.Episode))
	p.cursor = ""
	return nil
}

func (p *ucsPolicy) Choose(st *State) (string, error) {
	if p.cursor != st.Cur {
		c, err := p.l.Report(st.Cur, "neutral", "")
		if err != nil {
			return "", err
		}
		p.calls.Positioning++
		p.cursor = c
	}
	adv, err := p.l.Consult(st.Context)
	if err != nil {
		return "", err
	}
	p.calls.Consults++
	if adv.Cursor != st.Cur {
		return "", fmt.Errorf("episode %d: ucs advises from %q but the agent is at %q", st.Episode, adv.Cursor, st.Cur)
	}
	follow := p.compliance >= 1 || p.r.Float64() < p.compliance
	if follow && len(adv.Next) > 0 {
		return adv.Next[0], nil
	}
	return randomOf(st.Out, p.r), nil
}

func (p *ucsPolicy) Observe(st *State, action string, reported bool) error {
	var c string
	var err error
	switch p.feedback {
	case "exec":
		c, err = p.l.Exec(action, st.Succeeded, st.Context)
	case "honest":
		c, err = p.l.Report(action, success(st.Succeeded), st.Context)
	default:
		c, err = p.l.Report(action, success(reported), st.Context)
	}
	if err != nil {
		return err
	}
	p.calls.Reports++
	p.cursor = c
	if !reported {
		// After a failed step the agent says where it is before it asks
		// again: back at the tool it was at (v5 keeps the failure as the
		// state before that).
		p.cursor = ""
	}
	return nil
}

func (p *ucsPolicy) Close() error { return nil }

// Probe asks ucs on copies of the workspace: one copy per chain position
// (prev, cur), whose cursor is moved there by neutral reports of prev (when
// the copy is not already there) and cur, then one consult per query at
// that position.
func (p *ucsPolicy) Probe(qs []ProbeQuery) ([][]string, error) {
	out := make([][]string, len(qs))
	type pos struct{ prev, cur, context string }
	var order []pos
	groups := map[pos][]int{}
	for i, q := range qs {
		k := pos{q.Prev, q.Cur, q.Context}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		p.forks++
		dir := filepath.Join(p.scratch, fmt.Sprintf("probe-%d", p.forks))
		fork, err := p.l.Fork(dir)
		if err != nil {
			return nil, err
		}
		p.calls.ProbeForks++
		// A task of its own, begun at the position: prev (when there is
		// one), then cur, even when ucs is already there (v5 starts a
		// task where the agent says it is).
		fork.Task("probe")
		var moves []string
		if k.prev != "" {
			moves = append(moves, k.prev)
		}
		moves = append(moves, k.cur) // after prev, even when it is prev (a repeat)
		for _, t := range moves {
			if _, err = fork.Report(t, "neutral", k.context); err != nil {
				return nil, err
			}
			p.calls.ProbeReports++
		}
		for _, i := range groups[k] {
			adv, err := fork.Consult(qs[i].Context)
			if err != nil {
				return nil, err
			}
			p.calls.ProbeConsults++
			if adv.Cursor != k.cur {
				return nil, fmt.Errorf("probe: ucs advises from %q, not %q", adv.Cursor, k.cur)
			}
			out[i] = adv.Next
		}
		if err := os.RemoveAll(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return out, nil
}
