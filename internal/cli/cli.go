// Package cli is the ucs command line: cobra commands that turn flags and
// stdin into a bridge.Call, run it, and print its JSON result, or the JSON
// error with its exit code. cmd/ucs is a thin main around Run, so tests and
// replays can run the exact command line in process.
package cli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/handoff"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/store"
	"github.com/unified-cognitive-substrate/ucs/internal/suggest"
)

// Env is what a command reads from its environment.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Store serves PostgreSQL stores (cmd/ucs-pg sets it); without it, a
	// call on one runs ucs-pg in place of this process.
	Store store.Backend
}

// Run runs the command line args (without the program name) and returns
// the process exit code.
func Run(args []string, env Env) int { return run(args, env, calledCommand(args)) }

// run runs args on the tree rootCommand(only) builds.
func run(args []string, env Env, only string) int {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if err := checkText(args, env.Getenv); err != nil {
		st := &state{env: env}
		return st.fail(fault.AsError(err), only == "exec") // exec's stdout is the tool's
	}
	if env.Store == nil && handoff.Wanted(args, env.Getenv) {
		// Before anything is read: ucs-pg reads the same stdin.
		st := &state{env: env}
		return st.fail(fault.AsError(becomeStoreBinary(args, env.Getenv)), false)
	}
	st := &state{env: env, args: args}
	root := st.rootCommand(only)
	root.SetArgs(args)
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var code errExit
	if errors.As(err, &code) {
		return int(code) // exec: the tool's own exit code
	}
	var e *fault.Error
	if !errors.As(err, &e) {
		// cobra's own errors: unknown command or flag, bad flag value,
		// extra arguments. The hint names the command they were for.
		path := "ucs"
		hint := ""
		if cmd, _, ferr := root.Find(args); ferr == nil && cmd != nil {
			path = cmd.CommandPath()
			hint = flagHint(cmd, err)
		}
		e = &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeUsage, Msg: err.Error(),
			Hint: hint + "run `" + path + " --help` for usage"}
	}
	cmd, _, ferr := root.Find(args)
	return st.fail(e, ferr == nil && cmd != nil && cmd.Name() == "exec" && cmd.HasParent())
}

// flagHint is the did-you-mean of an unknown flag of cmd ("did you mean
// --task? "), by the distance unknown fields are judged by
// (suggest.Within2); "" for any other error, or when no flag is near.
func flagHint(cmd *cobra.Command, err error) string {
	// pflag's message for an unknown long flag (no regexp: compiling
	// one would cost every call at start-up).
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return ""
	}
	name, _, _ = strings.Cut(name, "=")
	var names []string
	visit := func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	cmd.LocalFlags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	if near := suggest.Within2(name, names); near != "" {
		return "did you mean --" + near + "? "
	}
	return ""
}

// state carries the root flags to the commands.
type state struct {
	env       Env
	workspace string
	store     string // --store: a directory, file:// or postgres:// URL
	wsName    string // --workspace-name: the workspace in a store
	compact   bool   // --compact: answers on one line
	// policyFile is --policy-file: the operator's policy file (over
	// UCS_POLICY_FILE).
	policyFile string
	args       []string
	// fleet: the call asks for the fleet (view --fleet, show --fleet),
	// which a store lists for it (store.Call.Fleet).
	fleet bool
}

// fail prints an error: its JSON on stdout (on stderr for exec, whose
// stdout is the tool's) and one line on stderr.
func (st *state) fail(e *fault.Error, exec bool) int {
	if exec {
		return FailOn(st.env.Stderr, e)
	}
	out := errorObject(e)
	if st.compact {
		fmt.Fprintf(st.env.Stdout, "%s\n", pyjson.AppendCompact(nil, out))
	} else {
		fmt.Fprintf(st.env.Stdout, "%s\n", pyjson.Indent(out))
	}
	fmt.Fprintf(st.env.Stderr, "ucs: %s\n", oneLine(e.Msg))
	return int(e.Kind)
}

// FailOn prints an error as one line of JSON on w and returns its exit
// code: how a binary whose stdout is not the answer's (exec's is the
// tool's, cmd/ucs-mcp's the protocol's) says it on stderr.
func FailOn(w io.Writer, e *fault.Error) int {
	fmt.Fprintf(w, "%s\n", fault.JSONLine(pyjson.AppendDumps(nil, errorObject(e))))
	return int(e.Kind)
}

// errorObject is the JSON of an error: its message, code and hint, then
// its details.
func errorObject(e *fault.Error) pyjson.Value {
	return pyjson.ObjectValue(append([]pyjson.Member{pyjson.KV("error", e.Msg), pyjson.KV("code", e.Code),
		pyjson.KV("hint", e.Hint)}, e.Details...))
}

// oneLine is a message as one line of stderr: its control characters
// escaped (fault.OneLine), so that input it quotes cannot drive the
// terminal.
func oneLine(s string) string { return fault.OneLine(s) }

// bridgeFor opens the bridge with the workspace and clock of the call.
func (st *state) bridgeFor() (*bridge.Bridge, error) { return st.bridgeAt(st.workspaceDir()) }

// bridgeAt opens the bridge on the workspace directory ws, with the clock
// and settings of the call.
func (st *state) bridgeAt(ws string) (*bridge.Bridge, error) {
	opts, err := st.optionsAt(ws)
	if err != nil {
		return nil, err
	}
	return bridge.New(opts), nil
}

// optionsAt are the options of the call on the workspace directory ws:
// the environment's (BridgeOptions), the policy file flagged, and the
// command line's output, progress and timings.
func (st *state) optionsAt(ws string) (bridge.Options, error) {
	opts, err := BridgeOptions(ws, st.env.Getenv)
	if err != nil {
		return opts, err
	}
	if st.policyFile != "" {
		opts.PolicyFile = st.policyFile
	}
	opts.Output = st.env.Stdout
	opts.Progress = func(done, total int64) {
		fmt.Fprintf(st.env.Stderr, "ucs: verified %d of %d journal bytes\n", done, total)
	}
	if st.env.Getenv("UCS_TIMINGS") == "1" {
		opts.Timings = st.env.Stderr
	}
	return opts, nil
}

// BridgeOptions are the options of a call on workspace (when "":
// $UCS_WORKSPACE, else ~/.ucs) as the environment sets them: UCS_NOW,
// UCS_LOCK_TIMEOUT, UCS_SNAPSHOT_EVERY, UCS_AGENT_ID, UCS_POLICY_FILE. The
// command line and the MCP server (cmd/ucs-mcp) read them the same way.
func BridgeOptions(workspace string, getenv func(string) string) (bridge.Options, error) {
	ws := workspace
	if ws == "" {
		ws = getenv("UCS_WORKSPACE")
	}
	if ws == "" {
		ws = bridge.DefaultWorkspace()
	}
	opts := bridge.Options{Workspace: ws, AgentID: getenv("UCS_AGENT_ID"), PolicyFile: getenv("UCS_POLICY_FILE")}
	if v := getenv("UCS_NOW"); v != "" {
		now, err := bridge.ParseNow(v)
		if err != nil {
			return opts, &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeInvalidClock, Msg: err.Error(),
				Hint: "set UCS_NOW to an RFC 3339 time, or unset it to use the real clock"}
		}
		opts.Now = now
	}
	if v := getenv("UCS_LOCK_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return opts, &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeInvalidLockTimeout,
				Msg: fmt.Sprintf("UCS_LOCK_TIMEOUT %q is not a positive duration", v), Hint: "use a Go duration such as 10s or 500ms"}
		}
		opts.LockTimeout = d
	}
	if v := getenv("UCS_SNAPSHOT_EVERY"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return opts, &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeInvalidSnapshotEvery,
				Msg: fmt.Sprintf("UCS_SNAPSHOT_EVERY %q is not a whole number", v), Hint: "use a number of events, or -1 for no snapshots"}
		}
		opts.SnapshotEvery = n
	}
	return opts, nil
}

// do runs one call and prints its result.
func (st *state) do(cmd *cobra.Command, c bridge.Call) error {
	var out pyjson.Value
	if f, ok := c.Args.Get("fleet"); ok && f.Bool() {
		st.fleet = true
	}
	err := st.withBridge(c.Op, func(b *bridge.Bridge) error {
		var err error
		out, err = b.Do(c)
		return err
	})
	if err != nil {
		return fault.AsError(err)
	}
	if out.IsNull() {
		return nil // the operation printed its output as a stream (log)
	}
	if st.compact {
		_, err := cmd.OutOrStdout().Write(append(pyjson.AppendCompact(nil, out), '\n'))
		return err
	}
	return printJSON(cmd, out)
}

// readInput reads and parses the command's stdin object.
func (st *state) readInput(cmd *cobra.Command) (pyjson.Value, error) {
	if st.env.Stdin == nil {
		return field.ParseInput(nil)
	}
	data, err := io.ReadAll(io.LimitReader(st.env.Stdin, field.MaxInput+1))
	if err != nil {
		return pyjson.Value{}, &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeUnreadableInput, Msg: "cannot read stdin: " + err.Error(),
			Hint: "send one JSON object on stdin"}
	}
	return field.ParseInput(data)
}
