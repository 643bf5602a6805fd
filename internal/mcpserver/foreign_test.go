package mcpserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file drive a built ucs-mcp with MCP clients nobody on
// this project wrote, from npm (scripts/mcp-foreign pins their versions in
// package.json and package-lock.json): the official TypeScript SDK, whose
// callTool validates every structured answer against the tool's
// outputSchema, and the MCP Inspector's command line. They need node and
// npm, and the npm registry the first time (node_modules is kept, beside
// the lock file's hash, under the folder); without them they skip, unless
// UCS_REQUIRE_NODE=1, as in CI.

// foreignDir is the folder of the foreign clients, from this package's.
const foreignDir = "../../scripts/mcp-foreign"

// foreignNow is the clock the servers run on.
const foreignNow = "2026-03-01T12:00:00Z"

// needNode skips the test, or fails it where UCS_REQUIRE_NODE=1, when the
// foreign clients cannot run here.
func needNode(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("UCS_REQUIRE_NODE") == "1" {
		t.Fatal(why + " (UCS_REQUIRE_NODE=1)")
	}
	t.Skip(why)
}

// foreignClients installs the foreign clients with `npm ci` unless the
// node_modules there was installed from the same package-lock.json, and
// returns the folder's absolute path.
func foreignClients(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"node", "npm"} {
		if _, err := exec.LookPath(name); err != nil {
			needNode(t, "the foreign MCP clients need "+name)
		}
	}
	dir, err := filepath.Abs(foreignDir)
	require.NoError(t, err)
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	require.NoError(t, err)
	sum := sha256.Sum256(lock)
	want := hex.EncodeToString(sum[:])
	stamp := filepath.Join(dir, "node_modules", ".ucs-lock-sha256")
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		return dir
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// --ignore-scripts: nothing of the packages runs at install; the
	// inspector's one script only installs its own sources' clients.
	cmd := exec.CommandContext(ctx, "npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		needNode(t, "npm ci failed (is the npm registry reachable?): "+err.Error()+"\n"+string(out))
	}
	require.NoError(t, os.WriteFile(stamp, []byte(want), 0o600))
	return dir
}

// buildServer builds cmd/ucs-mcp, the binary a foreign client starts.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ucs-mcp")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/ucs-mcp").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// runNode runs a program of the foreign clients' folder; its stdout, and
// its stderr in the failure's message.
func runNode(t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.NoError(t, err, "%s %s\nstdout: %s\nstderr: %s", name, strings.Join(args, " "), stdout.String(), stderr.String())
	return stdout.Bytes()
}

// TestForeignClients: an agent's whole session through the TypeScript SDK
// (scripts/mcp-foreign/client.mjs: init on an operator's server, then
// fifteen tools of the agent's, each answer validated by the SDK against
// its outputSchema, a tool error's too), after which ucs verify and check
// pass on the workspace; then the Inspector lists the tools (--strict: no
// schema problem of error severity) and calls status, which counts the
// session's reports, and goal_list with an argument.
func TestForeignClients(t *testing.T) {
	if testing.Short() {
		t.Skip("installs and runs node clients")
	}
	dir := foreignClients(t)
	bin := buildServer(t)
	ws := newDir(t)
	env := append(os.Environ(), "UCS_NOW="+foreignNow)

	out := runNode(t, dir, env, "node", "client.mjs", bin, ws)
	var ts struct {
		SDK   string `json:"sdk"`
		Tools int    `json:"tools"`
		Calls int    `json:"calls"`
	}
	require.NoError(t, json.Unmarshal(out, &ts), "%s", out)
	assert.Equal(t, "1.32.2", ts.SDK)
	assert.Equal(t, 18, ts.Calls)
	for _, op := range []string{"verify", "check"} {
		res, code := ucs(t, ws, "", op)
		assert.Equal(t, 0, code, "%s: %s", op, res)
	}

	// The inspector starts the server with the default environment of the
	// SDK it uses and -e; HOME is a temporary folder, so that nothing of
	// its own (a catalog of servers) lands in the user's.
	ienv := append(os.Environ(), "HOME="+t.TempDir())
	inspector := filepath.Join(dir, "node_modules", ".bin", "mcp-inspector")
	server := []string{"--cli", "-e", "UCS_NOW=" + foreignNow, bin, "--workspace", ws}
	out = runNode(t, dir, ienv, inspector, append(server, "--method", "tools/list", "--strict")...)
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(out, &list), "%s", out)
	assert.Len(t, list.Tools, ts.Tools, "the inspector and the SDK list as many tools")
	names := map[string]bool{}
	for _, tool := range list.Tools {
		names[tool.Name] = true
		assert.NotEmpty(t, tool.OutputSchema, tool.Name)
	}
	assert.True(t, names["status"] && names["execute_action"], "%v", names)

	out = runNode(t, dir, ienv, inspector, append(server, "--method", "tools/call", "--tool-name", "status")...)
	var call struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			ReportsTotal *int `json:"reports_total"`
		} `json:"structuredContent"`
	}
	require.NoError(t, json.Unmarshal(out, &call), "%s", out)
	assert.False(t, call.IsError, "%s", out)
	require.NotNil(t, call.StructuredContent.ReportsTotal, "%s", out)
	assert.Equal(t, 2, *call.StructuredContent.ReportsTotal)

	// An argument, as the inspector's key=value: the session's goal.
	out = runNode(t, dir, ienv, inspector, append(server, "--method", "tools/call", "--tool-name", "goal_list", "--tool-arg", "state=all")...)
	assert.Contains(t, string(out), "make the tests pass")
	assert.NotContains(t, string(out), `"isError": true`)
}
