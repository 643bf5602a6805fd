package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/field"
)

// The SDK's stdio transport (v1.8.0) reads stdin with one streaming JSON
// decoder and ends the session on the first frame it cannot decode: a line
// that is not JSON, a JSON value that is not a JSON-RPC message, an id of
// the wrong type, a batch, a line over its cap. On stdin's end it also
// stops waiting for the calls still running, so their answers may never be
// written. Stdio puts a filter in front of it: every line the filter passes
// on is one the SDK decodes, rebuilt from its parts, and every line it
// cannot pass on it answers itself with a JSON-RPC error, through the same
// writer the transport writes with, one whole frame at a time. At the end
// of stdin it waits until every call it passed on has been answered.

// MaxFrame is the longest line (one JSON-RPC message) the server reads: a
// tool's arguments may be as large as the command line's stdin
// (field.MaxInput), and the envelope gets a mebibyte more. A longer line
// is skipped as it streams by, never held whole, and answered with an
// invalid-request error.
const MaxFrame = field.MaxInput + 1<<20

// maxDepth is the deepest nesting of arrays and objects a line may hold:
// the SDK refuses (and ends the session on) more than 1000, and no input
// of an operation comes near either.
const maxDepth = 512

// JSON-RPC's error codes for what the filter answers.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// maxID is the largest integer id passed on: the SDK reads ids as float64,
// so a larger one would come back in its answer as another number.
const maxID = 1 << 53

// Stdio returns the server's transport over in and out (stdin and stdout):
// the SDK's newline-delimited JSON-RPC, behind the filter described above.
func Stdio(in io.Reader, out io.Writer) mcp.Transport {
	fr := &frames{out: out}
	fr.drained = sync.NewCond(&fr.mu)
	f := &filter{in: bufio.NewReaderSize(in, 64<<10), fr: fr}
	// The filter enforces MaxFrame; the SDK's own cap would end the session.
	return &mcp.IOTransport{Reader: f, Writer: fr, MaxLineLength: -1}
}

// frames is the server's stdout, shared by the transport and the filter:
// each Write is one whole frame, written under the lock, and the calls
// passed on but not yet answered are counted here.
type frames struct {
	out     io.Writer
	mu      sync.Mutex
	drained *sync.Cond // broadcast when pending shrinks or writing fails
	pending map[string]int
	failed  error // the first write error: no answer can be delivered after it
}

// Write writes one frame and, when it is the answer to a call, marks the
// call answered.
func (fr *frames) Write(p []byte) (int, error) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	n, err := fr.out.Write(p)
	if err != nil {
		if fr.failed == nil {
			fr.failed = err
		}
		fr.drained.Broadcast()
		return n, err
	}
	if !gjson.GetBytes(p, "method").Exists() {
		if key, ok := idKey(gjson.GetBytes(p, "id")); ok && fr.pending[key] > 0 {
			if fr.pending[key]--; fr.pending[key] == 0 {
				delete(fr.pending, key)
			}
			fr.drained.Broadcast()
		}
	}
	return n, nil
}

// Close keeps stdout open: the process ends with the session.
func (fr *frames) Close() error { return nil }

// reply writes the filter's own error answer.
func (fr *frames) reply(id json.RawMessage, code int, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	line := make([]byte, 0, 128)
	line = append(line, `{"jsonrpc":"2.0","id":`...)
	line = append(line, id...)
	line = append(line, `,"error":{"code":`...)
	line = strconv.AppendInt(line, int64(code), 10)
	line = append(line, `,"message":`...)
	m, _ := json.Marshal(msg)
	line = append(line, m...)
	line = append(line, "}}\n"...)
	fr.Write(line) // a failed write is recorded: the drain stops waiting
}

// track counts a call passed on, unless one with its id is still pending
// (the SDK would refuse it without naming its id).
func (fr *frames) track(key string) bool {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.pending[key] > 0 {
		return false
	}
	if fr.pending == nil {
		fr.pending = map[string]int{}
	}
	fr.pending[key]++
	return true
}

// drain waits until every call passed on is answered, or no answer can be.
func (fr *frames) drain() {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	for len(fr.pending) > 0 && fr.failed == nil {
		fr.drained.Wait()
	}
}

// filter is what the transport reads: stdin's lines that are JSON-RPC
// messages, each rebuilt on one line.
type filter struct {
	in   *bufio.Reader
	fr   *frames
	line []byte // the line being read
	next []byte // what is left of the message being passed on
	eof  bool
}

// Read passes on the next message, answering every line it skips.
func (f *filter) Read(p []byte) (int, error) {
	for len(f.next) == 0 {
		if f.eof {
			f.fr.drain()
			return 0, io.EOF
		}
		line, tooLong, err := f.readLine()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return 0, err
			}
			f.eof = true
		}
		if tooLong {
			f.fr.reply(nil, codeInvalidRequest, "Invalid Request: the message is longer than "+strconv.Itoa(MaxFrame)+" bytes")
			continue
		}
		f.next = f.message(line)
	}
	n := copy(p, f.next)
	f.next = f.next[n:]
	return n, nil
}

// Close leaves stdin to the process.
func (f *filter) Close() error { return nil }

// readLine reads the next line, without its newline (the last one may
// have none). A line longer than MaxFrame is read to its end and dropped:
// tooLong.
func (f *filter) readLine() (line []byte, tooLong bool, err error) {
	if cap(f.line) > 1<<20 {
		f.line = nil // a large line's buffer is not kept for the session
	}
	f.line = f.line[:0]
	for {
		chunk, err := f.in.ReadSlice('\n')
		if !tooLong {
			if len(f.line)+len(bytes.TrimSuffix(chunk, []byte("\n"))) > MaxFrame {
				tooLong, f.line = true, nil
			} else {
				f.line = append(f.line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(f.line, []byte("\n")), tooLong, err
	}
}

// message checks one line and returns the message to pass on (with its
// newline), or nil when the line is blank or was answered with an error.
func (f *filter) message(line []byte) []byte {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	if !utf8.Valid(line) {
		f.fr.reply(nil, codeParseError, "Parse error: the line is not UTF-8")
		return nil
	}
	if !json.Valid(line) {
		f.fr.reply(nil, codeParseError, "Parse error: the line is not one JSON value")
		return nil
	}
	if depth(line) > maxDepth {
		f.fr.reply(nil, codeInvalidRequest, "Invalid Request: nested deeper than "+strconv.Itoa(maxDepth))
		return nil
	}
	switch line[0] {
	case '{':
	case '[':
		f.fr.reply(nil, codeInvalidRequest, "Invalid Request: batches are not supported; send one message a line")
		return nil
	default:
		f.fr.reply(nil, codeInvalidRequest, "Invalid Request: a message is a JSON object")
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		f.fr.reply(nil, codeParseError, "Parse error: "+err.Error())
		return nil
	}
	invalid := func(id json.RawMessage, why string) []byte {
		f.fr.reply(id, codeInvalidRequest, "Invalid Request: "+why)
		return nil
	}
	// The id first: an error about anything else names it when it can.
	var id json.RawMessage
	var key string
	if raw, ok := m["id"]; ok && !isNull(raw) {
		k, ok := idKey(gjson.ParseBytes(raw))
		if !ok {
			return invalid(nil, `"id" must be a string or an integer of at most 2^53`)
		}
		id, key = raw, k
	}
	if v := m["jsonrpc"]; string(v) != `"2.0"` {
		return invalid(id, `"jsonrpc" must be "2.0"`)
	}
	out := append(make([]byte, 0, len(line)+32), `{"jsonrpc":"2.0"`...)
	if id != nil {
		out = append(append(out, `,"id":`...), id...)
	}
	if method, ok := m["method"]; ok {
		if len(method) == 0 || method[0] != '"' {
			return invalid(id, `"method" must be a string`)
		}
		out = append(append(out, `,"method":`...), method...)
		if params, ok := m["params"]; ok && !isNull(params) {
			if params[0] != '{' && params[0] != '[' {
				return invalid(id, `"params" must be an object or an array`)
			}
			out = append(append(out, `,"params":`...), params...)
		}
		if id != nil && !f.fr.track(key) {
			return invalid(nil, "the id of a call still running")
		}
		return append(out, "}\n"...)
	}
	// No method: an answer to a request of the server's.
	if id == nil {
		return invalid(nil, `a request needs "method"; an answer needs "id"`)
	}
	result, hasResult := m["result"]
	errObj, hasError := m["error"]
	switch {
	case hasResult == hasError:
		return invalid(id, `an answer holds one of "result" and "error"`)
	case hasResult:
		out = append(append(out, `,"result":`...), result...)
	default:
		var e struct {
			Code    json.Number     `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(errObj, &e); err != nil || errObj[0] != '{' {
			return invalid(id, `"error" must be an object with "code" and "message"`)
		}
		code, err := strconv.ParseInt(string(e.Code), 10, 64)
		if err != nil {
			return invalid(id, `"error"'s "code" must be an integer`)
		}
		out = append(append(out, `,"error":{"code":`...), strconv.FormatInt(code, 10)...)
		msg, _ := json.Marshal(e.Message)
		out = append(append(out, `,"message":`...), msg...)
		if len(e.Data) > 0 && !isNull(e.Data) {
			out = append(append(out, `,"data":`...), e.Data...)
		}
		out = append(out, '}')
	}
	return append(out, "}\n"...)
}

// idKey is what identifies a call's id on both sides of the SDK: a string
// as its decoded text, an integer as its value; anything else is no id the
// filter passes on.
func idKey(id gjson.Result) (string, bool) {
	switch id.Type {
	case gjson.String:
		var s string
		if json.Unmarshal([]byte(id.Raw), &s) != nil {
			return "", false
		}
		return "s" + s, true
	case gjson.Number:
		n, err := strconv.ParseInt(id.Raw, 10, 64)
		if err != nil || n > maxID || n < -maxID {
			return "", false
		}
		return "n" + strconv.FormatInt(n, 10), true
	}
	return "", false
}

func isNull(raw json.RawMessage) bool { return string(raw) == "null" }

// depth is the deepest nesting of arrays and objects in valid JSON.
func depth(data []byte) int {
	d, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			deepest = max(deepest, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}
