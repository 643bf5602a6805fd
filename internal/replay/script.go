package replay

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Step is one line of a script: the command line after --workspace DIR,
// and the stdin object (or null).
type Step struct {
	Args  []string
	Stdin pyjson.Value
}

// ReadScript reads a script: one {"args": [...], "stdin": object|null} per
// line; blank lines are skipped.
func ReadScript(r io.Reader) ([]Step, error) {
	var steps []Step
	err := eachLine(r, func(n int, v pyjson.Value) error {
		args, _ := v.Get("args")
		if args.Kind() != pyjson.Array {
			return fmt.Errorf("line %d: \"args\" must be a list of strings", n)
		}
		var s Step
		for _, a := range args.Items() {
			if a.Kind() != pyjson.String {
				return fmt.Errorf("line %d: \"args\" must be a list of strings", n)
			}
			s.Args = append(s.Args, a.Str())
		}
		s.Stdin, _ = v.Get("stdin")
		steps = append(steps, s)
		return nil
	})
	return steps, err
}

// ReadResults reads one JSON value per line (an expected-outputs file).
func ReadResults(r io.Reader) ([]pyjson.Value, error) {
	var out []pyjson.Value
	err := eachLine(r, func(_ int, v pyjson.Value) error { out = append(out, v); return nil })
	return out, err
}

func eachLine(r io.Reader, fn func(int, pyjson.Value) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		v, err := pyjson.Parse(line)
		if err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
		if err := fn(n, v); err != nil {
			return err
		}
	}
	return sc.Err()
}

// A Result is what one step printed and how it exited.
type Result struct {
	Output pyjson.Value
	Stderr string
	Exit   int
}

// A Runner runs one ucs command line (the arguments after the program
// name) and returns its exit code: the ucs command line itself, in process.
type Runner func(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int

// Run runs one step against a workspace through run. getenv supplies
// UCS_NOW and the like.
func Run(run Runner, workspace string, s Step, getenv func(string) string) (Result, error) {
	var stdin io.Reader = bytes.NewReader(nil)
	if !s.Stdin.IsNull() {
		stdin = bytes.NewReader(pyjson.Canonical(s.Stdin))
	}
	var stdout, stderr bytes.Buffer
	args := append([]string{"--workspace", workspace}, s.Args...)
	code := run(args, stdin, &stdout, &stderr, getenv)
	out, err := pyjson.Parse(stdout.Bytes())
	if err != nil {
		return Result{}, fmt.Errorf("%v: output is not JSON: %v", s.Args, err)
	}
	return Result{Output: out, Stderr: stderr.String(), Exit: code}, nil
}
