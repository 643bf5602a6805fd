package outcome

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The rules of an Expectation (Judge).
const (
	RuleExpectedFailure  = "expected_failure"   // a failure was expected, and it exited non-zero
	RuleExpectedExitCode = "expected_exit_code" // a non-zero exit code the agent listed as success
	RuleUnexpectedPass   = "unexpected_pass"    // a failure was expected, and it exited 0
)

// An Expectation is what the agent says a run is for, when its point is
// to fail: reproducing a failing test exits non-zero, and that is the
// step going well. The zero Expectation expects success, as Classify
// does.
type Expectation struct {
	// Failure: any non-zero exit code is the step's success, exit 0 is
	// not what it was for.
	Failure bool
	// ExitCodes are the exit codes that mean success (0 only if listed),
	// e.g. [1] for a test run that must find the failure, [0, 1] for grep.
	ExitCodes []int
}

// IsZero says the expectation is the default one: success is exit 0.
func (x Expectation) IsZero() bool { return !x.Failure && len(x.ExitCodes) == 0 }

// Judge revises a verdict of Classify on r by the expectation. Only a run
// that exited with a code is judged: a timeout, a signal or an error that
// kept it from running is no expected failure, and keeps its verdict.
//
//	expected_failure    success  0.95  Failure, and a non-zero exit code
//	expected_exit_code  success  0.95  a non-zero exit code in ExitCodes
//	unexpected_pass     neutral  0.95  exit 0, and Failure or 0 not in ExitCodes
//
// An exit code the expectation does not name keeps its verdict (a
// failure, or partial when the capability declares it so); an expected
// exit 0 keeps its verdict too (the output rules still apply).
//
// An unexpected pass is neutral, not a failure: the tool worked, and
// what was wrong was the agent's hypothesis about the world (the bug was
// not there), not its choice of step; a failure would lower the very
// transition an expected failure must not lower.
func (x Expectation) Judge(r Result, v Verdict) Verdict {
	if x.IsZero() || r.ExitCode == nil || r.TimedOut || r.Signal != "" || r.Error != "" ||
		v.Rule == RuleTimeout || v.Rule == RuleKilled || v.Rule == RuleError {
		return v
	}
	code := *r.ExitCode
	expected := slices.Contains(x.ExitCodes, code)
	if x.Failure {
		expected = code != 0
	}
	exit := "exit " + strconv.Itoa(code)
	switch {
	case expected && code != 0 && x.Failure:
		return Verdict{Success, 0.95, RuleExpectedFailure, "expected failure: " + exit}
	case expected && code != 0:
		return Verdict{Success, 0.95, RuleExpectedExitCode, "expected " + exit}
	case !expected && code == 0:
		return Verdict{Neutral, 0.95, RuleUnexpectedPass, exit + ", " + x.String() + " was expected"}
	}
	return v
}

// String says the expectation in a few words: "a failure", "exit 1" or
// "exit 0 or 1"; "" for the zero Expectation.
func (x Expectation) String() string {
	if x.Failure {
		return "a failure"
	}
	if len(x.ExitCodes) == 0 {
		return ""
	}
	codes := make([]string, len(x.ExitCodes))
	for i, c := range x.ExitCodes {
		codes[i] = strconv.Itoa(c)
	}
	return "exit " + strings.Join(codes, " or ")
}

// JSON is the expectation as a report's "expect" member, which
// ParseExpectation reads back: {"failure": true} or {"exit_codes": [...]}.
func (x Expectation) JSON() pyjson.Value {
	if x.Failure {
		return pyjson.Obj(pyjson.KV("failure", true))
	}
	codes := make([]pyjson.Value, len(x.ExitCodes))
	for i, c := range x.ExitCodes {
		codes[i] = pyjson.From(c)
	}
	return pyjson.Obj(pyjson.KV("exit_codes", pyjson.ArrayValue(codes)))
}

// expectError is what is wrong with a member of an expectation.
func expectError(member, reason string) error {
	if member == "" {
		return errors.New("expect: " + reason)
	}
	return errors.New("expect." + member + ": " + reason)
}

// maxExitCodes bounds the exit codes an expectation lists.
const maxExitCodes = 256

// ParseExpectation reads a report's "expect" object:
//
//	failure     true: the run is expected to fail (false, null: not)
//	exit_codes  a list of integers: the exit codes that mean success
//
// Null and {} are the zero Expectation. Both members at once, another
// member, a member of another type, an empty list or more than 256 codes
// give an error naming it ("expect.<member>: <reason>").
func ParseExpectation(v pyjson.Value) (Expectation, error) {
	var x Expectation
	if v.IsNull() {
		return x, nil
	}
	if v.Kind() != pyjson.Object {
		return x, expectError("", "must be an object, not "+v.Kind().Noun())
	}
	for _, m := range v.Members() {
		switch m.Key {
		case "failure":
			if m.Value.IsNull() {
				continue
			}
			if m.Value.Kind() != pyjson.Bool {
				return Expectation{}, expectError("failure", "must be true, false or null, not "+describe(m.Value))
			}
			x.Failure = m.Value.Bool()
		case "exit_codes":
			if m.Value.IsNull() {
				continue
			}
			items := m.Value.Items()
			if m.Value.Kind() != pyjson.Array || len(items) == 0 || len(items) > maxExitCodes {
				return Expectation{}, expectError("exit_codes", "must be a list of 1 to 256 integers, not "+describe(m.Value))
			}
			for _, it := range items {
				i, ok := it.Int()
				if !ok || int64(int(i)) != i {
					return Expectation{}, expectError("exit_codes", "must list integers, not "+describe(it))
				}
				if !slices.Contains(x.ExitCodes, int(i)) {
					x.ExitCodes = append(x.ExitCodes, int(i))
				}
			}
		default:
			return Expectation{}, expectError(m.Key, "unknown member: expect has failure, exit_codes")
		}
	}
	if x.Failure && len(x.ExitCodes) > 0 {
		return Expectation{}, expectError("", "give failure or exit_codes, not both")
	}
	return x, nil
}
