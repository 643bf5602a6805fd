package outcome

import (
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The bounds of a Summary.
const (
	MaxTailLines  = 5   // the lines of stderr a summary keeps, the last ones
	MaxTailBytes  = 400 // the bytes of stderr a summary keeps, at most
	MaxErrorBytes = 400 // the bytes of the error a summary keeps, the first ones
	MaxSignal     = 64  // the bytes of the signal's name a summary keeps
)

// sanitizeWindow is how much of a long text Summarize sanitises before it
// cuts: enough context around what it keeps for a key=value pair or a PEM
// block to be recognised, little enough that a 1 MB stderr costs nothing.
const sanitizeWindow = 8 << 10

// Summary is a Result as ucs records it: bounded and sanitised, so that a
// journal entry neither grows with a tool's output nor keeps its secrets.
// Build one with Summarize; write it with JSON.
type Summary struct {
	ExitCode    *int   // nil: unknown
	Signal      string // sanitised, at most MaxSignal bytes
	Error       string // sanitised, the first MaxErrorBytes bytes at most
	DurationMS  int64
	TimeoutMS   int64
	TimedOut    bool
	HTTPStatus  int
	StdoutBytes int64
	StderrBytes int64
	StdoutTail  string // sanitised: the last MaxTailLines lines of stdout, at most MaxTailBytes bytes (what the output rules read)
	StderrTail  string // sanitised: the last MaxTailLines lines of stderr, at most MaxTailBytes bytes
}

// Summarize bounds and sanitises a result. Texts are made valid UTF-8
// (an invalid byte becomes U+FFFD), sanitised, then cut at a character's
// boundary; what is cut is sanitised again, so a secret whose context the
// cut removed does not show either. The numbers are kept as they are.
func Summarize(r Result) Summary {
	s := Summary{
		Signal:      bounded(r.Signal, MaxSignal, false),
		Error:       bounded(r.Error, MaxErrorBytes, false),
		DurationMS:  r.DurationMS,
		TimeoutMS:   r.TimeoutMS,
		TimedOut:    r.TimedOut,
		HTTPStatus:  r.HTTPStatus,
		StdoutBytes: r.StdoutBytes,
		StderrBytes: r.StderrBytes,
		StdoutTail:  bounded(r.StdoutTail, MaxTailBytes, true),
		StderrTail:  bounded(r.StderrTail, MaxTailBytes, true),
	}
	if r.ExitCode != nil {
		code := *r.ExitCode
		s.ExitCode = &code
	}
	return s
}

// JSON returns the summary as a JSON object with its members in a fixed
// order: exit_code (null when unknown), signal, error, duration_ms,
// timeout_ms, timed_out, http_status, stdout_bytes, stderr_bytes,
// stdout_tail, stderr_tail. Written with pyjson, the same summary gives the same bytes.
// ParseResult reads it back.
func (s Summary) JSON() pyjson.Value {
	var exit any
	if s.ExitCode != nil {
		exit = *s.ExitCode
	}
	return pyjson.Obj(
		pyjson.KV("exit_code", exit),
		pyjson.KV("signal", s.Signal),
		pyjson.KV("error", s.Error),
		pyjson.KV("duration_ms", s.DurationMS),
		pyjson.KV("timeout_ms", s.TimeoutMS),
		pyjson.KV("timed_out", s.TimedOut),
		pyjson.KV("http_status", s.HTTPStatus),
		pyjson.KV("stdout_bytes", s.StdoutBytes),
		pyjson.KV("stderr_bytes", s.StderrBytes),
		pyjson.KV("stdout_tail", s.StdoutTail),
		pyjson.KV("stderr_tail", s.StderrTail),
	)
}

// bounded sanitises s and cuts it to n bytes, keeping its start (head) or
// its last lines (lastLines), until sanitising what is left changes
// nothing or three rounds have passed. Only a window of a long s is
// sanitised at first: the part kept and some context before or after it.
func bounded(s string, n int, fromEnd bool) string {
	cut, window := head, head
	if fromEnd {
		cut, window = lastLines, lastBytes
	}
	s = cut(Sanitize(strings.ToValidUTF8(window(s, sanitizeWindow), "\uFFFD")), n)
	for range 3 {
		t := Sanitize(s)
		if t == s {
			break
		}
		s = cut(t, n)
	}
	return s
}

// lastLines returns the last MaxTailLines lines of s (without the line
// breaks that end it), then the last n bytes of those.
func lastLines(s string, n int) string {
	s = strings.TrimRight(s, "\r\n")
	i := len(s)
	for range MaxTailLines {
		j := strings.LastIndexByte(s[:i], '\n')
		if j < 0 {
			i = 0
			break
		}
		i = j
	}
	if i > 0 {
		i++ // past the line break
	}
	return lastBytes(s[i:], n)
}
