package cli_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/cli"
)

// Regression (fixed): a terminal escape sequence in --workspace reached
// stderr raw in the one-line error ("ucs: no workspace at ...\x1b[2J..."),
// where it drives the terminal that shows it. The line escapes it as %q
// does; the JSON on stdout keeps the path exact.
func TestStderrEscapesControlCharacters(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws\x1b[2J\x1b]0;owned\a\u009b31m")
	run := func(args ...string) (code int, stdout, stderr string) {
		var o, e bytes.Buffer
		code = cli.Run(args, cli.Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e,
			Getenv: func(k string) string { return map[string]string{"UCS_NOW": "2026-11-21T21:01:00Z"}[k] }})
		return code, o.String(), e.String()
	}
	noControl := func(what, s string) {
		t.Helper()
		for _, r := range strings.TrimSuffix(s, "\n") {
			assert.False(t, r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0, "%s holds %U: %q", what, r, s)
		}
	}

	code, stdout, stderr := run("--workspace", ws, "status")
	assert.Equal(t, 3, code)
	noControl("stderr", stderr)
	assert.Contains(t, stderr, `ws\x1b[2J\x1b]0;owned\a\u009b31m: the directory does not exist`)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
	assert.Equal(t, ws, gjson.Get(stdout, "workspace").String(), "the JSON keeps the path exact")

	// exec prints its error as JSON on stderr (stdout is the tool's).
	code, stdout, stderr = run("--workspace", ws, "exec", "--action", "read", "--", "true")
	assert.Equal(t, 3, code)
	assert.Empty(t, stdout)
	noControl("exec's stderr", stderr)
	require.True(t, gjson.Valid(stderr), "%q", stderr)
	assert.Equal(t, ws, gjson.Get(stderr, "workspace").String())
}
