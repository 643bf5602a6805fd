package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/replay"
)

// ReplayMismatch is the exit code of a replay whose outputs differ from the
// expected ones.
const ReplayMismatch = 1

func (st *state) replayCommand() *cobra.Command {
	var expect, record, fields string
	var tolerance float64
	cmd := &cobra.Command{
		Use:   "replay SCRIPT.jsonl",
		Short: "Run a scripted session in process and compare it with expected outputs (for CI)",
		Long: `Run a scripted session — one {"args": [...], "stdin": object|null} per line, args
being a ucs command line without --workspace — against a workspace (a fresh
temporary one unless --workspace names one), printing each step's JSON result on
its own line. Set UCS_NOW to fix the clock.

With --expect, each result is compared with the expected one: numbers within
--tolerance, everything else exactly, except what a replay cannot reproduce
(timestamps and ids hashed over them; see the README). --fields limits the
comparison to those top-level fields. Each mismatch is printed on stderr as
"step N (op): path: got X, want Y"; any mismatch exits 1. Paths of the workspace
the expected outputs were recorded in are mapped to this run's.

--record FILE writes this run's outputs as a new expected file.`,
		Example: `  UCS_NOW=2026-11-21T21:01:00Z ucs replay session.jsonl --expect expected.jsonl
  ucs replay session.jsonl --record expected.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return st.replay(cmd, args[0], expect, record, fields, tolerance)
		},
	}
	cmd.Flags().StringVar(&expect, "expect", "", "expected outputs, one JSON object per line")
	cmd.Flags().StringVar(&record, "record", "", "write this run's outputs to FILE")
	cmd.Flags().StringVar(&fields, "fields", "", "compare only these top-level fields (comma-separated)")
	cmd.Flags().Float64Var(&tolerance, "tolerance", 1e-4, "largest difference between numbers that still counts as equal")
	return cmd
}

func usageErr(format string, args ...any) error {
	return &fault.Error{Kind: fault.KindBadInput, Code: fault.CodeUsage, Msg: fmt.Sprintf(format, args...),
		Hint: "run `ucs replay --help` for usage"}
}

func (st *state) replay(cmd *cobra.Command, scriptPath, expectPath, recordPath, fields string, tolerance float64) error {
	f, err := os.Open(scriptPath)
	if err != nil {
		return usageErr("cannot open the script: %v", err)
	}
	steps, err := replay.ReadScript(f)
	f.Close()
	if err != nil {
		return usageErr("%s: %v", scriptPath, err)
	}
	ws := st.workspace
	if ws == "" {
		dir, err := os.MkdirTemp("", "ucs-replay-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		ws = dir + "/ws"
	}
	var expected []pyjson.Value
	if expectPath != "" {
		raw, err := os.ReadFile(expectPath)
		if err != nil {
			return usageErr("cannot read the expected outputs: %v", err)
		}
		raw = mapWorkspace(raw, ws)
		if expected, err = replay.ReadResults(bytes.NewReader(raw)); err != nil {
			return usageErr("%s: %v", expectPath, err)
		}
		if len(expected) != len(steps) {
			return usageErr("%s has %d outputs for %d steps", expectPath, len(expected), len(steps))
		}
	}
	rules := replay.DefaultRules
	rules.Tolerance = tolerance
	var only []string
	if fields != "" {
		only = strings.Split(fields, ",")
	}
	run := func(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
		return Run(args, Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: getenv})
	}
	out := cmd.OutOrStdout()
	errw := cmd.ErrOrStderr()
	var recorded bytes.Buffer
	mismatched := 0
	for i, step := range steps {
		res, err := replay.Run(run, ws, step, st.env.Getenv)
		if err != nil {
			return &fault.Error{Kind: fault.KindInternal, Code: fault.CodeInternal, Msg: fmt.Sprintf("step %d: %v", i, err)}
		}
		line := pyjson.AppendCanonical(nil, res.Output)
		fmt.Fprintf(out, "%s\n", line)
		recorded.Write(pyjson.AppendDumps(nil, res.Output))
		recorded.WriteByte('\n')
		if expected == nil {
			continue
		}
		got, want := res.Output, expected[i]
		if only != nil {
			got, want = pick(got, only), pick(want, only)
		}
		diffs := replay.Compare(got, want, rules)
		for _, d := range diffs {
			fmt.Fprintf(errw, "step %d (%s): %s\n", i, strings.Join(step.Args, " "), d)
		}
		if len(diffs) > 0 {
			mismatched++
		}
	}
	if recordPath != "" {
		if err := os.WriteFile(recordPath, recorded.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if expected != nil {
		fmt.Fprintf(errw, "replay: %d of %d steps match\n", len(steps)-mismatched, len(steps))
		if mismatched > 0 {
			return &fault.Error{Kind: fault.Kind(ReplayMismatch), Code: fault.CodeReplayMismatch,
				Msg:  strconv.Itoa(mismatched) + " step(s) differ from the expected outputs",
				Hint: "the differences are listed on stderr; record new expectations with --record only if the change is intended"}
		}
	}
	return nil
}

// pick keeps the named top-level members of an object.
func pick(v pyjson.Value, names []string) pyjson.Value {
	var ms []pyjson.Member
	for _, n := range names {
		if x, ok := v.Get(strings.TrimSpace(n)); ok {
			ms = append(ms, pyjson.Member{Key: strings.TrimSpace(n), Value: x})
		}
	}
	return pyjson.ObjectValue(ms)
}

// mapWorkspace rewrites the workspace path the expected outputs were
// recorded in (the "workspace" an init step printed) to this run's.
func mapWorkspace(raw []byte, ws string) []byte {
	first, _, _ := bytes.Cut(raw, []byte("\n"))
	v, err := pyjson.Parse(first)
	if err != nil {
		return raw
	}
	old, ok := v.Get("workspace")
	if !ok || old.Kind() != pyjson.String || old.Str() == "" {
		return raw
	}
	from := pyjson.AppendString(nil, old.Str())
	to := pyjson.AppendString(nil, ws)
	// The path as it appears inside JSON strings, without the quotes: alone,
	// or within a longer path or sentence.
	return bytes.ReplaceAll(raw, from[1:len(from)-1], to[1:len(to)-1])
}
