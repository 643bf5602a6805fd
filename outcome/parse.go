package outcome

import (
	"math"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// resultMembers are the members ParseResult reads, in the order its
// messages list them. stdout_tail and stderr_bytes are read too, so that
// an agent can pass what the classifier's patterns look at and a
// Summary's JSON reads back.
var resultMembers = []string{
	"exit_code", "signal", "error", "duration_ms", "timeout_ms", "timed_out",
	"http_status", "stdout_bytes", "stderr_bytes", "stdout_tail", "stderr_tail",
}

// A FieldError says which member of a result is wrong and why.
type FieldError struct {
	Member string // the member's name; "" for the result as a whole
	Reason string
}

// Error returns "result.<member>: <reason>".
func (e *FieldError) Error() string {
	if e.Member == "" {
		return "result: " + e.Reason
	}
	return "result." + e.Member + ": " + e.Reason
}

// maxDurationMS bounds a duration: some 285,000 years, exact in a float.
const maxDurationMS = 1 << 53

// ParseResult reads a report's "result" object into a Result. Every member
// is optional and null is the same as absent:
//
//	exit_code     an integer
//	signal        a string
//	error         a string
//	duration_ms   a non-negative number (a float is rounded to the millisecond)
//	timeout_ms    a non-negative number (likewise)
//	timed_out     a boolean
//	http_status   an integer, 0 (unknown) or 100-599
//	stdout_bytes  a non-negative integer
//	stderr_bytes  a non-negative integer
//	stdout_tail   a string
//	stderr_tail   a string
//
// A member of another type or out of range, and a member not in this list,
// give a *FieldError naming it; the first in the object's order is
// reported.
func ParseResult(v pyjson.Value) (Result, error) {
	var r Result
	if v.Kind() != pyjson.Object {
		return r, &FieldError{"", "must be an object, not " + v.Kind().Noun()}
	}
	for _, m := range v.Members() {
		if err := r.set(m.Key, m.Value); err != nil {
			return Result{}, err
		}
	}
	return r, nil
}

// set reads one member of a result into r.
func (r *Result) set(key string, x pyjson.Value) error {
	if !slices.Contains(resultMembers, key) {
		return &FieldError{key, "unknown member: a result has " + strings.Join(resultMembers, ", ")}
	}
	if x.IsNull() {
		return nil
	}
	var err error
	fail := func(want string) error { return &FieldError{key, "must be " + want + " or null, not " + describe(x)} }
	switch key {
	case "exit_code":
		i, ok := x.Int()
		if !ok || int64(int(i)) != i {
			return fail("an integer")
		}
		code := int(i)
		r.ExitCode = &code
	case "signal":
		r.Signal, err = str(x, fail)
	case "error":
		r.Error, err = str(x, fail)
	case "stdout_tail":
		r.StdoutTail, err = str(x, fail)
	case "stderr_tail":
		r.StderrTail, err = str(x, fail)
	case "duration_ms":
		r.DurationMS, err = duration(x, fail)
	case "timeout_ms":
		r.TimeoutMS, err = duration(x, fail)
	case "timed_out":
		if x.Kind() != pyjson.Bool {
			return fail("true, false")
		}
		r.TimedOut = x.Bool()
	case "http_status":
		i, ok := x.Int()
		if !ok || i != 0 && (i < 100 || i > 599) {
			return fail("an HTTP status (100-599), 0")
		}
		r.HTTPStatus = int(i)
	case "stdout_bytes":
		r.StdoutBytes, err = count(x, fail)
	case "stderr_bytes":
		r.StderrBytes, err = count(x, fail)
	}
	return err
}

func str(x pyjson.Value, fail func(string) error) (string, error) {
	if x.Kind() != pyjson.String {
		return "", fail("a string")
	}
	return x.Str(), nil
}

// duration reads a number of milliseconds: non-negative, a float rounded.
func duration(x pyjson.Value, fail func(string) error) (int64, error) {
	const want = "a non-negative number of milliseconds"
	if i, ok := x.Int(); ok {
		if i < 0 || i > maxDurationMS {
			return 0, fail(want)
		}
		return i, nil
	}
	f, ok := x.Float()
	if !ok || !(f >= 0 && f <= maxDurationMS) { // NaN fails too
		return 0, fail(want)
	}
	return int64(math.Round(f)), nil
}

// count reads a number of bytes: a non-negative integer.
func count(x pyjson.Value, fail func(string) error) (int64, error) {
	i, ok := x.Int()
	if !ok || i < 0 {
		return 0, fail("a non-negative integer")
	}
	return i, nil
}

// describe names a value for a message: a number by its value, anything
// else by its kind.
func describe(x pyjson.Value) string {
	switch x.Kind() {
	case pyjson.Int, pyjson.Float:
		return string(pyjson.AppendCompact(nil, x))
	}
	return x.Kind().Noun()
}
