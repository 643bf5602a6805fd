package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/cli"
)

func runUCS(args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	// The reference's session runs on the reference's model.
	env := map[string]string{"UCS_NOW": "2026-11-21T21:01:00Z", "UCS_MODEL": "v2"}
	code = cli.Run(args, cli.Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e, Getenv: func(k string) string { return env[k] }})
	return o.String(), e.String(), code
}

// TestReplayCommand: `ucs replay` on the reference's 60-step session with
// its recorded outputs passes; an altered expected file fails with exit 1
// and a readable diff naming step, op, path, got and want; --record writes
// outputs that replay against themselves.
func TestReplayCommand(t *testing.T) {
	script := "../../testdata/reference-v2/script.jsonl"
	expected := "../../testdata/reference-v2/expected.jsonl"
	out, errOut, code := runUCS("replay", script, "--expect", expected)
	require.Equal(t, 0, code, errOut)
	assert.Len(t, strings.Split(strings.TrimSpace(out), "\n"), 60, "one result per step")
	assert.Contains(t, errOut, "replay: 60 of 60 steps match")

	raw, err := os.ReadFile(expected)
	require.NoError(t, err)
	altered := strings.Replace(string(raw), `"new_w": -0.0125`, `"new_w": 0.5`, 1)
	require.NotEqual(t, string(raw), altered)
	path := filepath.Join(t.TempDir(), "altered.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(altered), 0o644))
	_, errOut, code = runUCS("replay", script, "--expect", path)
	assert.Equal(t, cli.ReplayMismatch, code)
	assert.Contains(t, errOut, "step 10 (report): reinforcement.new_w: got -0.0125, want 0.5")
	assert.Contains(t, errOut, "replay: 59 of 60 steps match")

	// --fields compares only the named fields: the altered one is not among them.
	_, errOut, code = runUCS("replay", script, "--expect", path, "--fields", "cursor,routed")
	assert.Equal(t, 0, code, errOut)

	record := filepath.Join(t.TempDir(), "recorded.jsonl")
	_, errOut, code = runUCS("replay", script, "--record", record)
	require.Equal(t, 0, code, errOut)
	_, errOut, code = runUCS("replay", script, "--expect", record)
	assert.Equal(t, 0, code, errOut)
}
