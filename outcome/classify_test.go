package outcome

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func code(c int) *int { return &c }

func TestClassify(t *testing.T) {
	httpRules := Rules{HTTPStatusPattern: `HTTP/[\d.]+ (\d{3})`}
	for _, tc := range []struct {
		name   string
		r      Result
		rules  Rules
		status Status
		conf   float64
		rule   string
		detail string
	}{
		// timeout
		{"timed out", Result{TimedOut: true, TimeoutMS: 30000, DurationMS: 30001, ExitCode: code(-1), Signal: "killed"}, Rules{},
			Timeout, 1.0, RuleTimeout, "killed at the timeout of 30000 ms"},
		{"timed out, timeout unknown", Result{TimedOut: true}, Rules{}, Timeout, 1.0, RuleTimeout, "killed at the timeout"},
		{"ran as long as the timeout", Result{ExitCode: code(2), DurationMS: 1000, TimeoutMS: 1000}, Rules{},
			Timeout, 1.0, RuleTimeout, "ran 1000 ms, the timeout is 1000 ms"},
		{"timeout beats partial exit code", Result{ExitCode: code(3), DurationMS: 1500, TimeoutMS: 1000}, Rules{PartialExitCodes: []int{3}},
			Timeout, 1.0, RuleTimeout, "ran 1500 ms, the timeout is 1000 ms"},
		// killed
		{"signal", Result{Signal: "SIGSEGV", ExitCode: code(-1), DurationMS: 5}, Rules{}, Failure, 1.0, RuleKilled, "killed by signal SIGSEGV"},
		{"signal beats error", Result{Signal: "killed", Error: "exit status 137"}, Rules{}, Failure, 1.0, RuleKilled, "killed by signal killed"},
		// error
		{"error", Result{Error: "exec: \"mk\": executable file not found in $PATH\nmore", ExitCode: code(0)}, Rules{},
			Failure, 0.95, RuleError, "error: exec: \"mk\": executable file not found in $PATH"},
		{"error is sanitised", Result{Error: "login failed: password=hunter2"}, Rules{}, Failure, 0.95, RuleError, "error: login failed: password=[REDACTED]"},
		{"error beats exit code", Result{Error: "boom", ExitCode: code(3)}, Rules{PartialExitCodes: []int{3}}, Failure, 0.95, RuleError, "error: boom"},
		// exit code
		{"exit code", Result{ExitCode: code(1), DurationMS: 20}, Rules{}, Failure, 0.95, RuleExitCode, "exit code 1"},
		{"negative exit code", Result{ExitCode: code(-1)}, Rules{}, Failure, 0.95, RuleExitCode, "exit code -1"},
		{"partial exit code", Result{ExitCode: code(3)}, Rules{PartialExitCodes: []int{2, 3}}, Partial, 0.8, RulePartialExitCode, "exit code 3, declared partial"},
		{"exit code not declared partial", Result{ExitCode: code(4)}, Rules{PartialExitCodes: []int{2, 3}}, Failure, 0.95, RuleExitCode, "exit code 4"},
		{"exit code beats HTTP status", Result{ExitCode: code(22), HTTPStatus: 503}, Rules{}, Failure, 0.95, RuleExitCode, "exit code 22"},
		// http status
		{"known HTTP status", Result{ExitCode: code(0), HTTPStatus: 503}, Rules{}, Failure, 0.9, RuleHTTPStatus, "HTTP 503"},
		{"HTTP 400", Result{HTTPStatus: 400}, Rules{}, Failure, 0.9, RuleHTTPStatus, "HTTP 400"},
		{"HTTP 599", Result{HTTPStatus: 599}, Rules{}, Failure, 0.9, RuleHTTPStatus, "HTTP 599"},
		{"HTTP 600 is no status", Result{ExitCode: code(0), HTTPStatus: 600}, Rules{}, Success, 0.95, RuleSuccess, "exit code 0"},
		{"HTTP 2xx does not fire", Result{ExitCode: code(0), HTTPStatus: 204}, Rules{}, Success, 0.95, RuleSuccess, "exit code 0"},
		{"status in stdout", Result{ExitCode: code(0), StdoutTail: "< HTTP/1.1 404 Not Found\n"}, httpRules,
			Failure, 0.9, RuleHTTPStatus, "HTTP 404 in stdout"},
		{"status in stderr", Result{ExitCode: code(0), StdoutTail: "{}", StderrTail: "< HTTP/2 502\n< server: x\n"}, httpRules,
			Failure, 0.9, RuleHTTPStatus, "HTTP 502 in stderr"},
		{"the last status counts", Result{ExitCode: code(0), StderrTail: "< HTTP/1.1 500 Oops\n< HTTP/1.1 200 OK\n"}, httpRules,
			Success, 0.95, RuleSuccess, "exit code 0"},
		{"the last status counts, failing", Result{ExitCode: code(0), StderrTail: "< HTTP/1.1 301 Moved\n< HTTP/1.1 429 Slow down\n"}, httpRules,
			Failure, 0.9, RuleHTTPStatus, "HTTP 429 in stderr"},
		{"2xx found does not fire", Result{ExitCode: code(0), StdoutTail: "HTTP/1.1 201 Created"}, httpRules, Success, 0.95, RuleSuccess, "exit code 0"},
		{"no pattern, no status", Result{ExitCode: code(0), StdoutTail: "HTTP/1.1 500 Internal"}, Rules{}, Success, 0.95, RuleSuccess, "exit code 0"},
		{"invalid pattern is absent", Result{ExitCode: code(0), StdoutTail: "HTTP/1.1 500"}, Rules{HTTPStatusPattern: `HTTP (\d{3}`},
			Success, 0.95, RuleSuccess, "exit code 0"},
		{"pattern without group is absent", Result{ExitCode: code(0), StdoutTail: "HTTP/1.1 500"}, Rules{HTTPStatusPattern: `HTTP/1.1 5\d\d`},
			Success, 0.95, RuleSuccess, "exit code 0"},
		{"HTTP status beats empty output", Result{ExitCode: code(0), HTTPStatus: 500}, Rules{ExpectsOutput: true}, Failure, 0.9, RuleHTTPStatus, "HTTP 500"},
		// empty output
		{"empty output declared", Result{ExitCode: code(0), DurationMS: 10}, Rules{ExpectsOutput: true}, Failure, 0.7, RuleEmptyOutput, "no output on stdout"},
		{"empty output not declared", Result{ExitCode: code(0), DurationMS: 10}, Rules{}, Success, 0.95, RuleSuccess, "exit code 0"},
		{"output present", Result{ExitCode: code(0), StdoutBytes: 1}, Rules{ExpectsOutput: true}, Success, 0.95, RuleSuccess, "exit code 0"},
		{"empty output beats partial signal", Result{ExitCode: code(0), StderrTail: "3 skipped"}, Rules{ExpectsOutput: true, PartialPattern: `skipped`},
			Failure, 0.7, RuleEmptyOutput, "no output on stdout"},
		// partial signal
		{"partial in stdout", Result{ExitCode: code(0), StdoutBytes: 40, StdoutTail: "12 passed, 3 skipped"}, Rules{PartialPattern: `\d+ skipped`},
			Partial, 0.8, RulePartialSignal, "partial pattern matched in stdout"},
		{"partial in stderr", Result{ExitCode: code(0), StderrTail: "WARNING: truncated"}, Rules{PartialPattern: `(?i)truncated`},
			Partial, 0.8, RulePartialSignal, "partial pattern matched in stderr"},
		{"partial pattern absent", Result{ExitCode: code(0), StdoutTail: "all good"}, Rules{PartialPattern: `skipped`}, Success, 0.95, RuleSuccess, "exit code 0"},
		{"invalid partial pattern is absent", Result{ExitCode: code(0), StdoutTail: "(("}, Rules{PartialPattern: `((`}, Success, 0.95, RuleSuccess, "exit code 0"},
		{"partial signal beats slow success", Result{ExitCode: code(0), DurationMS: 990, TimeoutMS: 1000, StdoutTail: "partial"}, Rules{PartialPattern: `partial`},
			Partial, 0.8, RulePartialSignal, "partial pattern matched in stdout"},
		// slow success
		{"exactly 80% is not slow", Result{ExitCode: code(0), DurationMS: 800, TimeoutMS: 1000}, Rules{}, Success, 0.95, RuleSuccess, "exit code 0"},
		{"just over 80% is slow", Result{ExitCode: code(0), DurationMS: 801, TimeoutMS: 1000}, Rules{}, Success, 0.75, RuleSlowSuccess, "took 801 ms of a 1000 ms timeout"},
		{"over 80% of an odd timeout", Result{ExitCode: code(0), DurationMS: 6, TimeoutMS: 7}, Rules{}, Success, 0.75, RuleSlowSuccess, "took 6 ms of a 7 ms timeout"},
		{"under 80% of an odd timeout", Result{ExitCode: code(0), DurationMS: 5, TimeoutMS: 7}, Rules{}, Success, 0.95, RuleSuccess, "exit code 0"},
		{"exactly 80% of a small timeout", Result{ExitCode: code(0), DurationMS: 4, TimeoutMS: 5}, Rules{}, Success, 0.95, RuleSuccess, "exit code 0"},
		{"just under the timeout", Result{ExitCode: code(0), DurationMS: 1<<62 - 1, TimeoutMS: 1 << 62}, Rules{}, Success, 0.75, RuleSlowSuccess, "took 4611686018427387903 ms of a 4611686018427387904 ms timeout"},
		// success and unverified
		{"success", Result{ExitCode: code(0), DurationMS: 12, StdoutBytes: 300}, Rules{}, Success, 0.95, RuleSuccess, "exit code 0"},
		{"no exit code but a duration", Result{DurationMS: 12}, Rules{}, Success, 0.95, RuleSuccess, "no failure observed"},
		{"no exit code but output", Result{StderrTail: "done"}, Rules{}, Success, 0.95, RuleSuccess, "no failure observed"},
		{"no exit code but a 2xx", Result{HTTPStatus: 200}, Rules{}, Success, 0.95, RuleSuccess, "no failure observed"},
		{"unverified", Result{}, Rules{}, Success, 0.6, RuleUnverified, "nothing observed: no exit code, duration, output or status"},
		{"unverified with a timeout in force", Result{TimeoutMS: 1000}, Rules{}, Success, 0.6, RuleUnverified, "nothing observed: no exit code, duration, output or status"},
		{"negative numbers do not confuse it", Result{DurationMS: -5, TimeoutMS: -1, StdoutBytes: -1}, Rules{}, Success, 0.95, RuleSuccess, "no failure observed"},
	} {
		got := Classify(tc.r, tc.rules)
		assert.Equal(t, Verdict{tc.status, tc.conf, tc.rule, tc.detail}, got, tc.name)
	}
}

func TestClassifyDetailIsBrief(t *testing.T) {
	long := "sk-proj-Ab3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9 " + string(make([]byte, 10000))
	v := Classify(Result{Error: long}, Rules{})
	assert.Equal(t, "error: sk-proj-[REDACTED] ", v.Detail[:len("error: sk-proj-[REDACTED] ")])
	assert.LessOrEqual(t, len(v.Detail), len("error: ")+maxBrief)
}

func TestValidate(t *testing.T) {
	assert.NoError(t, Rules{}.Validate())
	assert.NoError(t, Rules{PartialExitCodes: []int{2}, HTTPStatusPattern: `status=(\d+)`, ExpectsOutput: true, PartialPattern: `skipped`}.Validate())

	for _, tc := range []struct {
		rules Rules
		want  string
	}{
		{Rules{HTTPStatusPattern: `status=(\d+`}, "http_status_pattern: error parsing regexp: missing closing ): `status=(\\d+`"},
		{Rules{HTTPStatusPattern: `status=\d+`}, "http_status_pattern \"status=\\\\d+\" has no group to capture the status"},
		{Rules{PartialPattern: `[a-`}, "partial_pattern: error parsing regexp: missing closing ]: `[a-`"},
		{Rules{PartialExitCodes: []int{2, 0}}, "partial_exit_codes[1]: 0 is success, not partial"},
	} {
		err := tc.rules.Validate()
		if assert.Error(t, err, "%+v", tc.rules) {
			assert.Contains(t, err.Error(), tc.want)
		}
	}
	// Every problem at once.
	err := Rules{HTTPStatusPattern: `(`, PartialPattern: `)`, PartialExitCodes: []int{0}}.Validate()
	if assert.Error(t, err) {
		assert.Contains(t, err.Error(), "http_status_pattern")
		assert.Contains(t, err.Error(), "partial_pattern")
		assert.Contains(t, err.Error(), "partial_exit_codes")
	}
}

// The cache answers the same whether or not a pattern is in it, and stays
// bounded.
func TestPatternCache(t *testing.T) {
	for i := range 3 * maxCached {
		p := `x{` + string(rune('0'+i%10)) + `}(` + string(rune('a'+i%26)) + `)` + string(make([]byte, i/260))
		assert.Equal(t, compiled(p), compiled(p))
	}
	assert.LessOrEqual(t, len(patterns.m), maxCached)
	assert.Nil(t, compiled(`(`))
	assert.Nil(t, compiled(``))
	assert.NotNil(t, compiled(`a(b)`))
}

// The integer test for "more than 80% of the timeout" agrees with 5d > 4t.
func TestSlowSuccessBoundary(t *testing.T) {
	for timeout := int64(1); timeout <= 300; timeout++ {
		for d := int64(1); d < timeout; d++ {
			slow := Classify(Result{ExitCode: code(0), DurationMS: d, TimeoutMS: timeout}, Rules{}).Rule == RuleSlowSuccess
			if slow != (5*d > 4*timeout) {
				t.Fatalf("duration %d, timeout %d: slow %v", d, timeout, slow)
			}
		}
	}
}
