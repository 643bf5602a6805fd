package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// nobody is the user the agent runs as in TestPolicyFile: not the
// operator (root), who owns the policy file.
const nobody = 65534

// TestPolicyFile: a policy file the agent cannot write is the policy,
// and the agent cannot lift it. The agent is the built ucs run as uid
// 65534; the operator is root, who owns the file (0644) and its directory
// (0755). Before, an agent with a shell lifted its policy with ucs policy
// grant. Files this user can write are refused, and root can write any
// file. Runs as root only (as here and in CI).
func TestPolicyFile(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("needs root, to run ucs as another user")
	}
	base := t.TempDir()
	// The test's directories are 0700: let the agent through.
	require.NoError(t, os.Chmod(filepath.Dir(base), 0o755))
	require.NoError(t, os.Chmod(base, 0o755))
	bin := filepath.Join(base, "ucs")
	built, err := exec.Command("go", "build", "-o", bin, "../../cmd/ucs").CombinedOutput()
	require.NoError(t, err, "%s", built)

	etc := filepath.Join(base, "etc")
	require.NoError(t, os.Mkdir(etc, 0o755))
	pol := filepath.Join(etc, "policy.json")
	require.NoError(t, os.WriteFile(pol, []byte(`{"version": 1, "grants": ["proc:exec:ls", "fs:read:*"]}`), 0o644))
	ws := filepath.Join(base, "ws")
	require.NoError(t, os.Mkdir(ws, 0o700))
	require.NoError(t, os.Chown(ws, nobody, nobody))
	manifest := filepath.Join(base, "tools.json")
	require.NoError(t, os.WriteFile(manifest, []byte(`{"capabilities": [
  {"name": "start", "connects_to": ["lister", "reader"], "u": 0.5, "c": 0.2},
  {"name": "lister", "connects_to": ["lister", "reader"], "u": 0.5, "c": 0.2, "permissions": ["proc:exec:ls"]},
  {"name": "reader", "connects_to": ["lister"], "u": 0.9, "c": 0.2, "permissions": ["fs:read:*", "proc:exec:touch"]}
], "semantic_map": {}}`), 0o644))

	// ucs runs ucs as uid (and gid) uid, in ws, with env added.
	ucs := func(uid int, env []string, args ...string) (stdout string, code int) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"--workspace", ws}, args...)...)
		cmd.Dir = ws
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + ws, "UCS_NOW=2026-11-21T21:01:00Z", "UCS_LOCK_TIMEOUT=2s"}, env...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
		var so, se strings.Builder
		cmd.Stdout, cmd.Stderr = &so, &se
		err := cmd.Run()
		code = cmd.ProcessState.ExitCode()
		if err != nil && code < 0 {
			t.Fatalf("ucs %v: %v", args, err)
		}
		return so.String() + se.String(), code
	}
	lastEvent := func(op string) gjson.Result {
		t.Helper()
		out, code := ucs(nobody, nil, "log", "--op", op, "--limit", "1", "--compact")
		require.Equal(t, 0, code, out)
		return gjson.Parse(out)
	}

	out, code := ucs(nobody, nil, "init", "--manifest", manifest)
	require.Equal(t, 0, code, out)
	withFile := []string{"--policy-file", pol}

	// The accepted case: the file is the policy.
	out, code = ucs(nobody, nil, append(withFile, "status", "--compact")...)
	require.Equal(t, 0, code, out)
	assert.Equal(t, pol, gjson.Get(out, "policy.file").Str, out)
	assert.True(t, gjson.Get(out, "policy.locked").Bool(), out)
	out, code = ucs(nobody, nil, append(withFile, "exec", "--action", "lister", "--", "ls", manifest)...)
	assert.Equal(t, 0, code, out)
	// reader declares proc:exec:touch, which the file does not grant.
	out, code = ucs(nobody, nil, append(withFile, "exec", "--action", "reader", "--", "touch", "made")...)
	assert.Equal(t, 126, code, out)
	assert.NoFileExists(t, filepath.Join(ws, "made"))
	block := lastEvent("policy block")
	assert.Equal(t, `["proc:exec:ls","fs:read:*"]`, block.Get("input.policy_file.grants").Raw, "the refusal records the grants that made it")
	assert.Equal(t, pol, block.Get("input.policy_file.path").Str)

	// The agent cannot lift it: every change of the policy is refused,
	// by flag and by environment alike.
	for _, args := range [][]string{{"policy", "grant", "proc:exec:touch"}, {"policy", "clear"}, {"policy", "revoke", "proc:exec:ls"}} {
		out, code = ucs(nobody, nil, append(withFile, args...)...)
		assert.Equal(t, 2, code, out)
		assert.Contains(t, out, `"code": "policy_locked"`)
		out, code = ucs(nobody, []string{"UCS_POLICY_FILE=" + pol}, args...)
		assert.Equal(t, 2, code, out)
		assert.Contains(t, out, `"code": "policy_locked"`)
	}

	// consult leaves out what the file refuses, and records the file's
	// grants so verify replays the same decision without it.
	out, code = ucs(nobody, nil, append(withFile, "consult", "--context", "read the notes", "--compact")...)
	require.Equal(t, 0, code, out)
	assert.Equal(t, "reader", gjson.Get(out, "left_out_by_policy.0.capability").Str, out)
	assert.Equal(t, `["proc:exec:ls","fs:read:*"]`, lastEvent("consult").Get("input.policy_file.grants").Raw)
	require.NoError(t, os.Rename(pol, pol+".away"))
	for _, op := range []string{"verify", "check"} {
		out, code = ucs(nobody, nil, op)
		assert.Equal(t, 0, code, "%s without the file: %s", op, out)
	}
	require.NoError(t, os.Rename(pol+".away", pol))
	out, code = ucs(nobody, nil, append(withFile, "exec", "--action", "lister", "--", "ls", manifest)...)
	assert.Equal(t, 0, code, out)

	// Files the agent can write or replace are refused: its own file, a
	// root-owned file in its own directory, a file anyone may write; and
	// for root any file.
	own := filepath.Join(base, "own.json")
	require.NoError(t, os.WriteFile(own, []byte(`{"version": 1, "grants": []}`), 0o644))
	require.NoError(t, os.Chown(own, nobody, nobody))
	agentDir := filepath.Join(base, "agentdir")
	require.NoError(t, os.Mkdir(agentDir, 0o755))
	require.NoError(t, os.Chown(agentDir, nobody, nobody))
	inAgentDir := filepath.Join(agentDir, "policy.json")
	require.NoError(t, os.WriteFile(inAgentDir, []byte(`{"version": 1, "grants": []}`), 0o644))
	open := filepath.Join(etc, "open.json")
	require.NoError(t, os.WriteFile(open, []byte(`{"version": 1, "grants": []}`), 0o644))
	require.NoError(t, os.Chmod(open, 0o666))
	for _, tc := range []struct {
		uid  int
		file string
	}{{nobody, own}, {nobody, inAgentDir}, {nobody, open}, {0, pol}} {
		out, code = ucs(tc.uid, nil, "--policy-file", tc.file, "status")
		assert.Equal(t, 2, code, "uid %d, %s: %s", tc.uid, tc.file, out)
		assert.Contains(t, out, `"code": "policy_file_writable"`, "uid %d, %s", tc.uid, tc.file)
		out, code = ucs(tc.uid, []string{"UCS_POLICY_FILE=" + tc.file}, "exec", "--action", "lister", "--", "touch", "ran")
		assert.Equal(t, 2, code, out)
		assert.NoFileExists(t, filepath.Join(ws, "ran"), "nothing runs under a refused policy file")
	}
	out, code = ucs(nobody, nil, "check")
	assert.Equal(t, 0, code, out)
}
