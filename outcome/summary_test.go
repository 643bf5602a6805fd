package outcome

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

func TestSummarize(t *testing.T) {
	r := Result{
		ExitCode:    code(2),
		Signal:      "",
		Error:       "push failed: https://bob:hunter2@git.example.com/x.git",
		DurationMS:  1234,
		TimeoutMS:   60000,
		HTTPStatus:  0,
		StdoutBytes: 10,
		StderrBytes: 123,
		StdoutTail:  "kept: the output rules read it",
		StderrTail:  "line 1\nline 2\nexport API_TOKEN=abc123\nline 4\nline 5\nline 6 \"tab\there\"\n\n",
	}
	s := Summarize(r)
	assert.Equal(t, "push failed: https://[REDACTED]@git.example.com/x.git", s.Error)
	assert.Equal(t, "line 2\nexport API_TOKEN=[REDACTED]\nline 4\nline 5\nline 6 \"tab\there\"", s.StderrTail)
	*r.ExitCode = 7
	assert.Equal(t, 2, *s.ExitCode, "the summary holds its own copy")

	const golden = `{"exit_code":2,"signal":"","error":"push failed: https://[REDACTED]@git.example.com/x.git",` +
		`"duration_ms":1234,"timeout_ms":60000,"timed_out":false,"http_status":0,"stdout_bytes":10,"stderr_bytes":123,` +
		`"stdout_tail":"kept: the output rules read it","stderr_tail":"line 2\nexport API_TOKEN=[REDACTED]\nline 4\nline 5\nline 6 \"tab\there\""}`
	assert.Equal(t, golden, string(pyjson.AppendCompact(nil, s.JSON())))
	assert.Equal(t, golden, string(pyjson.AppendCompact(nil, Summarize(Result{
		ExitCode: code(2), Error: "push failed: https://bob:hunter2@git.example.com/x.git", DurationMS: 1234, TimeoutMS: 60000,
		StdoutBytes: 10, StderrBytes: 123, StdoutTail: r.StdoutTail, StderrTail: r.StderrTail,
	}).JSON())), "the same result, the same bytes")

	assert.Equal(t, `{"exit_code":null,"signal":"SIGKILL","error":"","duration_ms":0,"timeout_ms":0,"timed_out":true,`+
		`"http_status":503,"stdout_bytes":0,"stderr_bytes":0,"stdout_tail":"","stderr_tail":""}`,
		string(pyjson.AppendCompact(nil, Summarize(Result{Signal: "SIGKILL", TimedOut: true, HTTPStatus: 503}).JSON())))
}

// A summary is bounded whatever the result holds, and what it keeps is
// the end of stderr.
func TestSummarizeBounds(t *testing.T) {
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString("compiling module ")
		b.WriteString(strings.Repeat("é", b.Len()%37))
		b.WriteString("\n")
	}
	b.WriteString("error: password=hunter2 rejected\n")
	stderr := b.String()
	s := Summarize(Result{StderrTail: stderr, Error: strings.Repeat("x", 1<<20), Signal: strings.Repeat("S", 1000)})
	assert.LessOrEqual(t, len(s.StderrTail), MaxTailBytes)
	assert.LessOrEqual(t, strings.Count(s.StderrTail, "\n"), MaxTailLines-1)
	assert.True(t, strings.HasSuffix(s.StderrTail, "error: password=[REDACTED] rejected"), s.StderrTail)
	assert.Equal(t, MaxTailLines-1, strings.Count(s.StderrTail, "\n"))
	assert.True(t, strings.HasSuffix(strings.TrimSuffix(Sanitize(stderr[len(stderr)-1000:]), "\n"), s.StderrTail))
	assert.Len(t, s.Error, MaxErrorBytes)
	assert.Len(t, s.Signal, MaxSignal)

	// One long line: its last bytes, cut at a character's start.
	s = Summarize(Result{StderrTail: strings.Repeat("é", 1000)})
	assert.Equal(t, strings.Repeat("é", MaxTailBytes/2), s.StderrTail)

	// Invalid UTF-8 does not reach the JSON.
	s = Summarize(Result{StderrTail: "bad \xff byte", Error: "\xfe"})
	assert.Equal(t, "bad \uFFFD byte", s.StderrTail)
	assert.Equal(t, "\uFFFD", s.Error)
}

// A secret whose context the cut removes does not show: the kept text is
// sanitised again.
func TestSummarizeSanitisesAfterTheCut(t *testing.T) {
	// Before the cut, ghp_ follows a word character and is not a token;
	// after it, it starts the kept text and is one.
	tail := strings.Repeat("a", 10) + "x" + "ghp_" + strings.Repeat("Z9", 198)
	s := Summarize(Result{StderrTail: tail})
	assert.NotContains(t, s.StderrTail, "Z9Z9Z9Z9")
	assert.LessOrEqual(t, len(s.StderrTail), MaxTailBytes)
}

// A summary's JSON reads back as the result it summarises.
func TestSummaryRoundTrip(t *testing.T) {
	s := Summarize(Result{ExitCode: code(1), Signal: "SIGTERM", Error: "e", DurationMS: 5, TimeoutMS: 10, TimedOut: true,
		HTTPStatus: 404, StdoutBytes: 3, StderrBytes: 4, StderrTail: "tail"})
	data := pyjson.AppendCompact(nil, s.JSON())
	v, err := pyjson.Parse(data)
	require.NoError(t, err)
	r, err := ParseResult(v)
	require.NoError(t, err)
	assert.Equal(t, s, Summarize(r))
}
