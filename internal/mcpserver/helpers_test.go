package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/cli"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// now is the fixed clock of the tests (UCS_NOW for the command line).
const now = "2026-11-21T21:01:00Z"

// connect starts a server on ws with the fixed clock and connects a
// client to it over the SDK's in-memory transports.
func connect(t *testing.T, ws string) *mcp.ClientSession {
	t.Helper()
	clock, err := time.Parse(time.RFC3339, now)
	require.NoError(t, err)
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := New(bridge.Options{Workspace: ws, Now: clock}).Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its text (the answer's exact JSON) and
// whether it is a tool error; the structured content must be the same
// JSON.
func call(t *testing.T, cs *mcp.ClientSession, name string, args string) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	require.NoError(t, err, "%s %s", name, args)
	require.Len(t, res.Content, 1)
	text := res.Content[0].(*mcp.TextContent).Text
	var a, b any
	require.NoError(t, json.Unmarshal([]byte(text), &a))
	sc, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(sc, &b))
	require.Equal(t, a, b, "%s: the structured content is the text's JSON", name)
	return text, res.IsError
}

// runCLI runs the command line of operation op on the input object (its
// flags as flags, the rest on stdin) on ws, in process, with the fixed
// clock, and returns its compact answer and exit code.
func runCLI(t *testing.T, ws, op, input string) (string, int) {
	t.Helper()
	sp := bridge.Lookup(op)
	require.NotNil(t, sp, op)
	in, err := pyjson.Parse([]byte(input))
	require.NoError(t, err)
	args := append([]string{"--workspace", ws, "--compact"}, strings.Fields(op)...)
	var stdin []pyjson.Member
	for _, m := range in.Members() {
		var f *field.Field
		for _, x := range sp.Inputs() {
			if x.Name == m.Key && x.Flag {
				f = &x
			}
		}
		if f == nil {
			stdin = append(stdin, m)
			continue
		}
		switch m.Value.Kind() {
		case pyjson.Bool:
			if m.Value.Bool() {
				args = append(args, "--"+f.FlagName())
			}
		case pyjson.Array:
			var words []string
			for _, it := range m.Value.Items() {
				words = append(words, it.Str())
			}
			args = append(args, "--"+f.FlagName(), strings.Join(words, ","))
		case pyjson.String:
			args = append(args, "--"+f.FlagName(), m.Value.Str())
		default:
			args = append(args, "--"+f.FlagName(), string(pyjson.AppendCompact(nil, m.Value)))
		}
	}
	var stdinData []byte
	if sp.Stdin() {
		stdinData = pyjson.AppendCompact(nil, pyjson.ObjectValue(stdin))
	}
	var out, errOut bytes.Buffer
	code := cli.Run(args, cli.Env{Stdin: bytes.NewReader(stdinData), Stdout: &out, Stderr: &errOut,
		Getenv: func(k string) string { return map[string]string{"UCS_NOW": now}[k] }})
	return strings.TrimSpace(out.String()), code
}

// canonical is a JSON answer with keys sorted and the workspace's path
// (which differs between the two runs) replaced.
func canonical(t *testing.T, s, ws string) string {
	t.Helper()
	s = strings.ReplaceAll(s, ws, "WS")
	v, err := pyjson.Parse([]byte(s))
	require.NoError(t, err, s)
	if op, ok := v.Get("events"); ok { // log: the command line prints lines
		return string(pyjson.Canonical(op))
	}
	return string(pyjson.Canonical(v))
}

// lines parses the command line's JSON lines (log) as a list.
func lines(t *testing.T, s string) string {
	var items []string
	for l := range strings.SplitSeq(s, "\n") {
		items = append(items, l)
	}
	return "[" + strings.Join(items, ",") + "]"
}

func code(t *testing.T, s string) string {
	v, err := pyjson.Parse([]byte(s))
	require.NoError(t, err, s)
	c, _ := v.Get("code")
	return c.Str()
}

func newDir(t *testing.T) string {
	d := filepath.Join(t.TempDir(), "ws")
	return d
}

func writeFile(t *testing.T, path, data string) {
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
}

var _ = strconv.Itoa

func stringsReplace(s, old, new string) string { return strings.ReplaceAll(s, old, new) }
