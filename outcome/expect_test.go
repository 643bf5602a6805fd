package outcome

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

func exit(n int) *int { return &n }

// TestExpectationJudge: an expected failure is the step's success, an
// unexpected pass is neutral, an exit code the expectation does not name
// and a run that did not exit keep Classify's verdict.
func TestExpectationJudge(t *testing.T) {
	fail := Expectation{Failure: true}
	codes := Expectation{ExitCodes: []int{1}}
	for _, tc := range []struct {
		name   string
		x      Expectation
		r      Result
		status Status
		rule   string
	}{
		{"no expectation, exit 1", Expectation{}, Result{ExitCode: exit(1)}, Failure, RuleExitCode},
		{"expected failure, exit 1", fail, Result{ExitCode: exit(1)}, Success, RuleExpectedFailure},
		{"expected failure, exit 2", fail, Result{ExitCode: exit(2)}, Success, RuleExpectedFailure},
		{"expected failure, exit 0", fail, Result{ExitCode: exit(0)}, Neutral, RuleUnexpectedPass},
		{"expected failure, timeout", fail, Result{ExitCode: exit(143), TimedOut: true}, Timeout, RuleTimeout},
		{"expected failure, killed", fail, Result{Signal: "SIGKILL"}, Failure, RuleKilled},
		{"expected failure, cannot start", fail, Result{Error: "not found", ExitCode: exit(127)}, Failure, RuleError},
		{"expected failure, no exit code", fail, Result{DurationMS: 5}, Success, RuleSuccess},
		{"exit codes [1], exit 1", codes, Result{ExitCode: exit(1)}, Success, RuleExpectedExitCode},
		{"exit codes [1], exit 2", codes, Result{ExitCode: exit(2)}, Failure, RuleExitCode},
		{"exit codes [1], exit 0", codes, Result{ExitCode: exit(0)}, Neutral, RuleUnexpectedPass},
		{"exit codes [0 1], exit 0", Expectation{ExitCodes: []int{0, 1}}, Result{ExitCode: exit(0)}, Success, RuleSuccess},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.x.Judge(tc.r, Classify(tc.r, Rules{}))
			assert.Equal(t, tc.status, v.Status)
			assert.Equal(t, tc.rule, v.Rule)
		})
	}
}

// TestParseExpectation reads what JSON writes, and refuses what is not an
// expectation, naming the member.
func TestParseExpectation(t *testing.T) {
	for _, x := range []Expectation{{}, {Failure: true}, {ExitCodes: []int{0, 1}}} {
		if x.IsZero() {
			continue
		}
		got, err := ParseExpectation(x.JSON())
		require.NoError(t, err)
		assert.Equal(t, x, got)
	}
	for in, want := range map[string]string{
		`{"failure": 1}`:                       "expect.failure",
		`{"exit_codes": []}`:                   "expect.exit_codes",
		`{"exit_codes": [1.5]}`:                "expect.exit_codes",
		`{"exit_codes": "1"}`:                  "expect.exit_codes",
		`{"fail": true}`:                       "expect.fail",
		`{"failure": true, "exit_codes": [1]}`: "not both",
		`[1]`:                                  "must be an object",
	} {
		v, err := pyjson.Parse([]byte(in))
		require.NoError(t, err)
		_, err = ParseExpectation(v)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want, in)
	}
	x, err := ParseExpectation(pyjson.NullValue())
	require.NoError(t, err)
	assert.True(t, x.IsZero())
}

// FuzzParseExpectation: any JSON gives an expectation or an error, never
// a panic, and an expectation judges any result without one.
func FuzzParseExpectation(f *testing.F) {
	for _, s := range []string{`{"failure": true}`, `{"exit_codes": [1, 2]}`, `{}`, `null`, `{"exit_codes": [0]}`} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, s string, code int) {
		v, err := pyjson.Parse([]byte(s))
		if err != nil {
			return
		}
		x, err := ParseExpectation(v)
		if err != nil {
			return
		}
		v2 := x.Judge(Result{ExitCode: &code}, Classify(Result{ExitCode: &code}, Rules{}))
		if v2.Status == "" {
			t.Fatalf("no status for %s, exit %d", s, code)
		}
	})
}
