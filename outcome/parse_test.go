package outcome

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

func TestParseResult(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Result
	}{
		{`{}`, Result{}},
		{`{"exit_code": 0}`, Result{ExitCode: code(0)}},
		{`{"exit_code": -1, "signal": "SIGKILL"}`, Result{ExitCode: code(-1), Signal: "SIGKILL"}},
		{`{"exit_code": null, "signal": null, "error": null, "duration_ms": null, "timed_out": null, "http_status": null}`, Result{}},
		{`{"exit_code": 3, "duration_ms": 1500, "timeout_ms": 60000, "http_status": 200, "stdout_bytes": 12, "stderr_bytes": 0,
		   "stderr_tail": "warn\n", "stdout_tail": "ok", "error": "", "signal": "", "timed_out": false}`,
			Result{ExitCode: code(3), DurationMS: 1500, TimeoutMS: 60000, HTTPStatus: 200, StdoutBytes: 12, StderrTail: "warn\n", StdoutTail: "ok"}},
		{`{"duration_ms": 12.4, "timeout_ms": 0.5}`, Result{DurationMS: 12, TimeoutMS: 1}},
		{`{"duration_ms": 0.0}`, Result{}},
		{`{"timed_out": true, "http_status": 0}`, Result{TimedOut: true}},
		{`{"error": "exec: not found", "http_status": 599}`, Result{Error: "exec: not found", HTTPStatus: 599}},
	} {
		v, err := pyjson.Parse([]byte(tc.in))
		require.NoError(t, err, tc.in)
		got, err := ParseResult(v)
		if assert.NoError(t, err, tc.in) {
			assert.Equal(t, tc.want, got, tc.in)
		}
	}
}

func TestParseResultRefuses(t *testing.T) {
	for _, tc := range []struct{ in, member, msg string }{
		{`[]`, "", "result: must be an object, not an array"},
		{`"ok"`, "", "result: must be an object, not a string"},
		{`null`, "", "result: must be an object, not null"},
		{`{"exit_code": "1"}`, "exit_code", "result.exit_code: must be an integer or null, not a string"},
		{`{"exit_code": 1.0}`, "exit_code", "result.exit_code: must be an integer or null, not 1.0"},
		{`{"exit_code": true}`, "exit_code", "result.exit_code: must be an integer or null, not a bool"},
		{`{"duration_ms": -1}`, "duration_ms", "result.duration_ms: must be a non-negative number of milliseconds or null, not -1"},
		{`{"duration_ms": -0.5}`, "duration_ms", "result.duration_ms: must be a non-negative number of milliseconds or null, not -0.5"},
		{`{"duration_ms": "12"}`, "duration_ms", "result.duration_ms: must be a non-negative number of milliseconds or null, not a string"},
		{`{"duration_ms": 1e300}`, "duration_ms", "result.duration_ms: must be a non-negative number of milliseconds or null, not 1e+300"},
		{`{"timeout_ms": -30000}`, "timeout_ms", "result.timeout_ms: must be a non-negative number of milliseconds or null, not -30000"},
		{`{"timed_out": "yes"}`, "timed_out", "result.timed_out: must be true, false or null, not a string"},
		{`{"timed_out": 1}`, "timed_out", "result.timed_out: must be true, false or null, not 1"},
		{`{"http_status": 99}`, "http_status", "result.http_status: must be an HTTP status (100-599), 0 or null, not 99"},
		{`{"http_status": 600}`, "http_status", "result.http_status: must be an HTTP status (100-599), 0 or null, not 600"},
		{`{"http_status": "404"}`, "http_status", "result.http_status: must be an HTTP status (100-599), 0 or null, not a string"},
		{`{"stdout_bytes": -3}`, "stdout_bytes", "result.stdout_bytes: must be a non-negative integer or null, not -3"},
		{`{"stderr_bytes": 1.5}`, "stderr_bytes", "result.stderr_bytes: must be a non-negative integer or null, not 1.5"},
		{`{"stderr_tail": ["a"]}`, "stderr_tail", "result.stderr_tail: must be a string or null, not an array"},
		{`{"error": {"message": "x"}}`, "error", "result.error: must be a string or null, not an object"},
		{`{"signal": 9}`, "signal", "result.signal: must be a string or null, not 9"},
		{`{"exit_code": 0, "exitcode": 1}`, "exitcode", "result.exitcode: unknown member: a result has exit_code, signal, error, duration_ms, timeout_ms, timed_out, http_status, stdout_bytes, stderr_bytes, stdout_tail, stderr_tail"},
		{`{"stdout": null}`, "stdout", "result.stdout: unknown member"},
		{`{"signal": 1, "exit_code": "x"}`, "signal", "result.signal: must be a string"}, // the first in order
	} {
		v, err := pyjson.Parse([]byte(tc.in))
		require.NoError(t, err, tc.in)
		got, err := ParseResult(v)
		assert.Equal(t, Result{}, got, tc.in)
		var fe *FieldError
		if assert.True(t, errors.As(err, &fe), "%s: %v", tc.in, err) {
			assert.Equal(t, tc.member, fe.Member, tc.in)
			assert.Contains(t, err.Error(), tc.msg, tc.in)
		}
	}
}
