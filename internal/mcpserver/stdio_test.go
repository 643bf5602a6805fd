package mcpserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The tests of this file write raw lines to a server process's stdin, as
// a broken or hostile client would, and read its stdout line by line.

// rawServer is a ucs-mcp process spoken to in raw JSON-RPC lines.
type rawServer struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string // stdout's lines; closed at its end
	next  int         // the next id of a call
}

// hangGuard bounds the wait for a line, so that a server that stopped
// answering fails the test instead of hanging it. It measures nothing.
const hangGuard = 2 * time.Minute

// startRaw starts a server process on ws and completes the handshake.
func startRaw(t *testing.T, ws string) *rawServer {
	t.Helper()
	cmd := exec.Command(os.Args[0], "--workspace", ws)
	cmd.Env = append(os.Environ(), roleEnv+"=ucs-mcp")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	s := &rawServer{t: t, cmd: cmd, in: in, lines: make(chan string, 16), next: 100}
	go func() {
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				s.lines <- strings.TrimSuffix(line, "\n")
			}
			if err != nil {
				close(s.lines)
				return
			}
		}
	}()
	t.Cleanup(func() {
		in.Close()
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	init := s.call("initialize", `{"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}`)
	require.Contains(t, init, "result", "%v", init)
	s.send(`{"jsonrpc": "2.0", "method": "notifications/initialized"}` + "\n")
	return s
}

// send writes raw bytes to the server's stdin.
func (s *rawServer) send(data string) {
	s.t.Helper()
	_, err := io.WriteString(s.in, data)
	require.NoError(s.t, err)
}

// recv reads the next message the server writes; nil at stdout's end.
func (s *rawServer) recv() map[string]any {
	s.t.Helper()
	select {
	case line, ok := <-s.lines:
		if !ok {
			return nil
		}
		var m map[string]any
		require.NoError(s.t, json.Unmarshal([]byte(line), &m), "%q", line)
		return m
	case <-time.After(hangGuard):
		s.t.Fatal("the server stopped answering")
		return nil
	}
}

// call sends a request and returns its answer.
func (s *rawServer) call(method, params string) map[string]any {
	s.t.Helper()
	s.next++
	s.send(fmt.Sprintf(`{"jsonrpc": "2.0", "id": %d, "method": %q, "params": %s}`+"\n", s.next, method, params))
	m := s.recv()
	require.NotNil(s.t, m, "the server ended instead of answering %s", method)
	assert.Equal(s.t, float64(s.next), m["id"], "%v", m)
	return m
}

// alive checks that the session goes on: a ping and a tool call answered.
func (s *rawServer) alive(after string) {
	s.t.Helper()
	m := s.call("ping", `{}`)
	assert.Equal(s.t, map[string]any{}, m["result"], "ping after %s: %v", after, m)
	m = s.call("tools/call", `{"name": "check", "arguments": {}}`)
	assert.Contains(s.t, m, "result", "a tool call after %s: %v", after, m)
}

// errorOf is the code and id of an error answer.
func errorOf(t *testing.T, m map[string]any) (float64, any) {
	t.Helper()
	require.NotNil(t, m, "no answer: the server ended")
	e, ok := m["error"].(map[string]any)
	require.True(t, ok, "not an error answer: %v", m)
	return e["code"].(float64), m["id"]
}

// TestMalformedFrames: every line that is no JSON-RPC message is answered
// with a JSON-RPC error (the line's id when it has a usable one, else
// null), and the session goes on: the next calls are answered.
func TestMalformedFrames(t *testing.T) {
	s := startRaw(t, newDir(t))
	deep := strings.Repeat("[", 600) + strings.Repeat("]", 600)
	for _, c := range []struct {
		name, line string
		code       float64
		id         any
	}{
		{"not json", `not json`, -32700, nil},
		{"an empty object", `{}`, -32600, nil},
		{"an empty batch", `[]`, -32600, nil},
		{"a batch", `[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]`, -32600, nil},
		{"a string", `"ping"`, -32600, nil},
		{"a number", `42`, -32600, nil},
		{"binary garbage", "\x00\xff\xfe\x01garbage\x80", -32700, nil},
		{"not UTF-8 in a string", "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"p\xffing\"}", -32700, nil},
		{"an object as id", `{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}`, -32600, nil},
		{"a list as id", `{"jsonrpc": "2.0", "id": [1], "method": "ping"}`, -32600, nil},
		{"a fraction as id", `{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}`, -32600, nil},
		{"an id past 2^53", `{"jsonrpc": "2.0", "id": 9007199254740993, "method": "ping"}`, -32600, nil},
		{"a boolean as id", `{"jsonrpc": "2.0", "id": true, "method": "ping"}`, -32600, nil},
		{"no version", `{"id": 7, "method": "ping"}`, -32600, float64(7)},
		{"another version", `{"jsonrpc": "1.0", "id": "x", "method": "ping"}`, -32600, "x"},
		{"a number as method", `{"jsonrpc": "2.0", "id": 8, "method": 5}`, -32600, float64(8)},
		{"a string as params", `{"jsonrpc": "2.0", "id": 9, "method": "ping", "params": "x"}`, -32600, float64(9)},
		{"an answer without id", `{"jsonrpc": "2.0", "result": {}}`, -32600, nil},
		{"an answer with both", `{"jsonrpc": "2.0", "id": 3, "result": {}, "error": {"code": 1, "message": "m"}}`, -32600, float64(3)},
		{"a string as error", `{"jsonrpc": "2.0", "id": 4, "error": "bad"}`, -32600, float64(4)},
		{"a fraction as error code", `{"jsonrpc": "2.0", "id": 4, "error": {"code": 1.5, "message": "m"}}`, -32600, float64(4)},
		{"truncated, then a newline", `{"jsonrpc": "2.0", "id": 5, "method": "pi`, -32700, nil},
		{"two values on a line", `{"jsonrpc": "2.0", "id": 5, "method": "ping"} {}`, -32700, nil},
		{"a byte order mark", "\uFEFF{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"ping\"}", -32700, nil},
		{"nested too deep", `{"jsonrpc": "2.0", "id": 6, "method": "ping", "params": {"x": ` + deep + `}}`, -32600, nil},
	} {
		s.send(c.line + "\n")
		code, id := errorOf(t, s.recv())
		assert.Equal(t, c.code, code, c.name)
		assert.Equal(t, c.id, id, c.name)
		s.alive(c.name)
	}
	// A blank line is no message: nothing is answered, nothing breaks.
	s.send("\n  \r\n")
	s.alive("blank lines")
	// An answer to no request of the server's is dropped by the SDK.
	s.send(`{"jsonrpc": "2.0", "id": 77, "result": {}}` + "\n")
	s.alive("a stray answer")
}

// TestOverlongFrame: a line longer than MaxFrame is skipped as it streams
// by and answered with an invalid-request error; the session goes on.
func TestOverlongFrame(t *testing.T) {
	s := startRaw(t, newDir(t))
	head := `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "consult", "arguments": {"context": "`
	s.send(head)
	chunk := strings.Repeat("a", 1<<20)
	for range MaxFrame>>20 + 1 {
		s.send(chunk)
	}
	s.send(`"}}}` + "\n")
	code, id := errorOf(t, s.recv())
	assert.Equal(t, float64(-32600), code)
	assert.Nil(t, id)
	s.alive("an over-long line")
}

// TestTruncatedLastLine: a last line cut short before stdin's end is
// answered with a parse error, after the calls before it, and the server
// exits cleanly; a line paused mid-way is read to its newline.
func TestTruncatedLastLine(t *testing.T) {
	s := startRaw(t, newDir(t))
	s.send(`{"jsonrpc": "2.0", "id": 9, `) // the half line waits for its newline...
	s.send(`"method": "ping"}` + "\n")
	m := s.recv()
	assert.Equal(t, float64(9), m["id"], "...and is answered when it ends: %v", m)
	s.alive("a line in two writes")
	s.send(`{"jsonrpc": "2.0", "id": 10, "method": "ping"}` + "\n")
	s.send(`{"jsonrpc": "2.0", "id": 11, "method": "pi`)
	require.NoError(t, s.in.Close())
	// Answers come in any order: the filter's own at once, the SDK's
	// when its handler is done.
	a, b := s.recv(), s.recv()
	if a["id"] == nil {
		a, b = b, a
	}
	assert.Equal(t, float64(10), a["id"], "%v", a)
	code, id := errorOf(t, b)
	assert.Equal(t, float64(-32700), code)
	assert.Nil(t, id)
	assert.Nil(t, s.recv(), "stdout ends")
	assert.NoError(t, s.cmd.Wait(), "a clean exit")
}

// TestAnsweredBeforeExit: calls still running when stdin closes are
// answered before the server exits, and what they committed is there.
func TestAnsweredBeforeExit(t *testing.T) {
	ws := newDir(t)
	out, code := ucs(t, ws, "", "init")
	require.Equal(t, 0, code, out)
	s := startRaw(t, ws)
	big := strings.Repeat("x", 5<<20)
	calls := []string{
		`{"name": "execute_action", "arguments": {"action": "exec", "command": ["sleep", "0.3"]}}`,
		`{"name": "report", "arguments": {"action": "read", "success": "success", "context": "` + big + `"}}`,
		`{"name": "report", "arguments": {"action": "read", "success": "failure", "context": "` + big + big + `"}}`,
	}
	for i, c := range calls {
		s.send(fmt.Sprintf(`{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": %s}`+"\n", 1000+i, c))
	}
	require.NoError(t, s.in.Close())
	answered, recorded := map[float64]bool{}, 0
	for m := s.recv(); m != nil; m = s.recv() {
		answered[m["id"].(float64)] = true
		res, _ := m["result"].(map[string]any)
		if isErr, _ := res["isError"].(bool); res != nil && !isErr {
			recorded++
		}
	}
	for i := range calls {
		assert.True(t, answered[float64(1000+i)], "call %d is answered", i)
	}
	assert.NoError(t, s.cmd.Wait(), "a clean exit")
	out, code = ucs(t, ws, "", "status")
	require.Equal(t, 0, code, out)
	v, err := pyjson.Parse([]byte(out))
	require.NoError(t, err)
	total, _ := v.Get("reports_total")
	n, _ := total.Int()
	assert.Equal(t, int64(recorded), n, "every report answered is kept, and only those")
	out, code = ucs(t, ws, "", "verify")
	assert.Equal(t, 0, code, out)
}

// FuzzFilter: whatever a line holds, the filter either passes on one
// message the SDK decodes (whose call id it tracks as the SDK will answer
// it) or answers the line itself with one JSON-RPC error, never both.
func FuzzFilter(f *testing.F) {
	for _, s := range []string{`not json`, `{}`, `[]`, `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a\ud800","method":"x","params":[1]}`, `{"jsonrpc":"2.0","id":2,"error":{"code":3,"message":"m","data":{}}}`,
		`{"jsonrpc":"2.0","id":-0,"result":null}`, `{"jsonrpc":"2.0","id":1e3,"method":"x"}`, `{"jsonrpc":"2.0","method":"n","params":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var out strings.Builder
		fr := &frames{out: &out}
		fr.drained = sync.NewCond(&fr.mu)
		fl := &filter{fr: fr}
		msg := fl.message(line)
		if msg == nil {
			if out.Len() == 0 {
				require.Empty(t, strings.TrimSpace(string(line)), "a line dropped unanswered")
				return
			}
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(out.String()), &m), out.String())
			require.Contains(t, m, "error")
			require.True(t, strings.HasSuffix(out.String(), "}\n") && strings.Count(out.String(), "\n") == 1)
			return
		}
		require.Zero(t, out.Len(), "passed on and answered: %s", out.String())
		require.True(t, strings.HasSuffix(string(msg), "}\n") && strings.Count(string(msg), "\n") == 1)
		decoded, err := jsonrpc.DecodeMessage(msg)
		require.NoError(t, err, "%s", msg)
		// The SDK's answer to a call carries an id the filter counts.
		if req, ok := decoded.(*jsonrpc.Request); ok && req.ID.IsValid() {
			data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)})
			require.NoError(t, err)
			fr.Write(data)
			require.Empty(t, fr.pending, "answer %s does not settle %s", data, msg)
		}
	})
}
