package cli_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/cli"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace/workspacetest"
)

// call runs one command line in process on workspace ws with env, stdin
// in, and returns its decoded answer and exit code.
func call(t *testing.T, ws string, env map[string]string, in string, args ...string) (pyjson.Value, int) {
	t.Helper()
	var o, e bytes.Buffer
	all := map[string]string{"UCS_NOW": "2026-11-27T09:00:00Z"}
	for k, v := range env {
		all[k] = v
	}
	code := cli.Run(append([]string{"--workspace", ws, "--compact"}, args...),
		cli.Env{Stdin: strings.NewReader(in), Stdout: &o, Stderr: &e, Getenv: func(k string) string { return all[k] }})
	if o.Len() == 0 && bytes.HasPrefix(e.Bytes(), []byte("{")) {
		o = e // exec answers on stderr: its stdout is the tool's
	}
	if o.Len() == 0 {
		return pyjson.NullValue(), code
	}
	out, err := pyjson.Parse(bytes.TrimSpace(o.Bytes()))
	require.NoError(t, err, "stdout of %v is not JSON: %q", args, o.String())
	assert.LessOrEqual(t, strings.Count(e.String(), "\n"), 1, "one line on stderr: %q", e.String())
	return out, code
}

// sound asserts the workspace passes status, check and verify.
func sound(t *testing.T, ws string) {
	t.Helper()
	for _, args := range [][]string{{"status"}, {"check"}, {"verify"}} {
		out, code := call(t, ws, nil, "", args...)
		if !assert.Equal(t, 0, code, "%v after the refused call: %s", args, pyjson.AppendCompact(nil, out)) {
			t.FailNow()
		}
	}
}

// TestInvalidUTF8IsRefused: a byte that is not UTF-8 in any flag, argument
// or recorded environment variable is refused with invalid_utf8 naming it
// (exit 2) before the workspace is touched. Before, consult --context
// $'a\xffb' exited 0 and every later call failed with workspace_corrupt.
func TestInvalidUTF8IsRefused(t *testing.T) {
	ws := t.TempDir()
	_, code := call(t, ws, nil, "", "init")
	require.Equal(t, 0, code)
	_, code = call(t, ws, nil, `{"action":"read","success":"success"}`, "report") // event 2, which rate and amend name
	require.Equal(t, 0, code)
	bad := "a\xffb"
	cases := []struct {
		name  string
		env   map[string]string
		args  []string
		where string
	}{
		{"consult --context", nil, []string{"consult", "--context", bad}, "--context"},
		{"consult --context=", nil, []string{"consult", "--context=" + bad}, "--context"},
		{"goal add --content", nil, []string{"goal", "add", "--content", bad}, "--content"},
		{"rate --note", nil, []string{"rate", "2", "--success", "failure", "--note", bad}, "--note"},
		{"rate --by", nil, []string{"rate", "2", "--success", "failure", "--by", bad}, "--by"},
		{"amend --note", nil, []string{"amend", "2", "--note", bad}, "--note"},
		{"a positional argument", nil, []string{"goal", "show", bad}, "argument"},
		{"UCS_AGENT_ID", map[string]string{"UCS_AGENT_ID": bad}, []string{"report"}, "UCS_AGENT_ID"},
		{"UCS_WORKSPACE_NAME", map[string]string{"UCS_WORKSPACE_NAME": bad}, []string{"status"}, "UCS_WORKSPACE_NAME"},
		{"exec --context", nil, []string{"exec", "--action", "read", "--context", bad, "--", "touch", filepath.Join(ws, "ran")}, "--context"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := workspacetest.Fingerprint(t, ws)
			out, code := call(t, ws, c.env, `{"action":"read","success":"success"}`, c.args...)
			assert.Equal(t, 2, code)
			code2, _ := out.Get("code")
			msg, _ := out.Get("error")
			assert.Equal(t, "invalid_utf8", code2.Str())
			assert.Contains(t, msg.Str(), c.where)
			assert.Equal(t, before, workspacetest.Fingerprint(t, ws), "the workspace is unchanged")
			assert.NoFileExists(t, filepath.Join(ws, "ran"), "a refused exec runs nothing")
			sound(t, ws)
		})
	}
}

func mustCompact(v pyjson.Value) []byte { return pyjson.AppendCompact(nil, v) }
