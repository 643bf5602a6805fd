package realbench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/cli"
)

// The replay's clock: every call to ucs happens ClockStep after the
// previous one, from ClockStart (UCS_NOW), so a run is deterministic.
var (
	ClockStart = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	ClockStep  = time.Minute
)

// UCS says how the harness drives ucs.
type UCS struct {
	// Binary is the ucs binary to run, one process per call; empty: the
	// command line runs in this process (internal/cli.Run, as cmd/ucs
	// runs it).
	Binary string
	// InitArgs are added to `ucs init --manifest PATH`, e.g. --model v2.
	InitArgs []string
	// Env is KEY=VALUE added to every call's environment.
	Env []string
	// Task passes the episode's task id to ucs: `consult --task ID` and
	// "task" in the report. Off by default: a model that keys on the task
	// turns it on (today's command line has no such flag).
	Task bool
	// Probe consults with --greedy: the replayed agents never saw ucs's
	// advice, so every report is the agent's own choice, and a model that
	// tells advice followed from the agent's own choices (v5) must be
	// told the consult was a probe.
	Probe bool
}

// Describe says how ucs is driven, for the results.
func (u UCS) Describe() string {
	s := "in process"
	if u.Binary != "" {
		s = "binary " + u.Binary
	}
	if len(u.InitArgs) > 0 {
		s += " init " + strings.Join(u.InitArgs, " ")
	}
	if u.Task {
		s += " task"
	}
	if u.Probe {
		s += " probe"
	}
	return s
}

// A workspace is one ucs workspace driven through the command line.
type workspace struct {
	u     UCS
	dir   string
	clock time.Time
	calls int
}

// initWorkspace runs `ucs init --manifest manifest` on a new workspace dir.
func (u UCS) initWorkspace(dir, manifest string) (*workspace, error) {
	w := &workspace{u: u, dir: dir, clock: ClockStart}
	args := append([]string{"--workspace", dir, "init", "--manifest", manifest}, u.InitArgs...)
	if _, err := w.run(nil, args...); err != nil {
		return nil, err
	}
	return w, nil
}

// run runs one ucs command line and returns its stdout; a non-zero exit is
// an error carrying stderr.
func (w *workspace) run(stdin []byte, args ...string) ([]byte, error) {
	w.clock = w.clock.Add(ClockStep)
	w.calls++
	now := w.clock.Format(time.RFC3339)
	var stdout, stderr bytes.Buffer
	if w.u.Binary == "" {
		getenv := func(k string) string {
			if k == "UCS_NOW" {
				return now
			}
			for _, kv := range w.u.Env {
				if key, v, ok := strings.Cut(kv, "="); ok && key == k {
					return v
				}
			}
			return ""
		}
		code := cli.Run(args, cli.Env{Stdin: bytes.NewReader(stdin), Stdout: &stdout, Stderr: &stderr, Getenv: getenv})
		if code != 0 {
			return nil, fmt.Errorf("ucs %s: exit %d: %s", strings.Join(args, " "), code, strings.TrimSpace(stderr.String()))
		}
		return stdout.Bytes(), nil
	}
	cmd := exec.Command(w.u.Binary, args...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "UCS_") { // the caller's workspace or store must not leak in
			env = append(env, kv)
		}
	}
	cmd.Env = append(append(env, "UCS_NOW="+now), w.u.Env...)
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %v: %s", w.u.Binary, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// consult runs `ucs consult --context CONTEXT` and returns the cursor it
// advised from and the capabilities of its suggested paths, in order.
func (w *workspace) consult(context string, task int) (string, []string, error) {
	out, err := w.run(nil, w.u.consultArgs(w.dir, context, task)...)
	if err != nil {
		return "", nil, err
	}
	var c struct {
		Cursor string `json:"cursor"`
		Paths  []struct {
			To string `json:"to"`
		} `json:"suggested_paths"`
	}
	if err := json.Unmarshal(out, &c); err != nil {
		return "", nil, fmt.Errorf("ucs consult: %v", err)
	}
	next := make([]string, 0, len(c.Paths))
	for _, p := range c.Paths {
		next = append(next, p.To)
	}
	return c.Cursor, next, nil
}

// report runs `ucs report` with the JSON an agent pipes into it.
func (w *workspace) report(action, success, context string, task int) error {
	_, err := w.run(w.u.reportInput(action, success, context, task), "--workspace", w.dir, "report")
	return err
}

// consultArgs is the command line of a consult.
func (u UCS) consultArgs(dir, context string, task int) []string {
	args := []string{"--workspace", dir, "consult", "--context", context}
	if u.Task {
		args = append(args, "--task", strconv.Itoa(task))
	}
	if u.Probe {
		args = append(args, "--greedy")
	}
	return args
}

// reportInput is the JSON an agent pipes into `ucs report`.
func (u UCS) reportInput(action, success, context string, task int) []byte {
	in := map[string]string{"action": action, "success": success, "context": context}
	if u.Task {
		in["task"] = strconv.Itoa(task)
	}
	b, _ := json.Marshal(in) // sorted keys; strings always marshal
	return b
}
