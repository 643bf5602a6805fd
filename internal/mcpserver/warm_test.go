package mcpserver

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/bridge"
)

// TestWarmServer: a server keeps its workspace's decoded engine between
// calls (bridge.Warm); its answers and every file it writes are still the
// command line's, call after call, and when the command line commits on
// the server's workspace between two of its calls.
func TestWarmServer(t *testing.T) {
	wsTool, wsCLI := newDir(t), newDir(t)
	clock, err := time.Parse(time.RFC3339, now)
	require.NoError(t, err)
	w := bridge.NewWarm()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(bridge.Options{Workspace: wsTool, Now: clock, Warm: w}).Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	same := func(tool, args string) string {
		t.Helper()
		got, isErr := call(t, cs, tool, args)
		want, exit := runCLI(t, wsCLI, opOf(tool), args)
		require.Equal(t, exit != 0, isErr, "%s: %s / %s", tool, got, want)
		require.Equal(t, canonical(t, want, wsCLI), canonical(t, got, wsTool), "%s %s", tool, args)
		requireSameTree(t, wsCLI, wsTool, tool)
		return got
	}
	both := func(op, args string) { // another process, on both workspaces
		t.Helper()
		for _, ws := range []string{wsTool, wsCLI} {
			_, exit := runCLI(t, ws, op, args)
			require.Zero(t, exit, op)
		}
	}
	same("init", `{}`)
	advice := map[string]string{}
	for i, action := range []string{"read", "web_fetch", "read", "write", "exec", "read"} {
		got := same("consult", `{"context": "read the brief"}`)
		learn(t, advice, got)
		if i == 3 {
			both("report", `{"action": "edit", "success": "partial", "context": "edit the brief"}`)
		}
		same("report", `{"action": "`+action+`", "success": "success", "context": "read the brief", "advisory_id": "`+advice["ADVISORY"]+`"}`)
		same("status", `{}`)
		same("rate", `{"seq": 99, "success": "failure"}`) // fails: not a report
	}
	hits, misses := w.Stats()
	require.Equal(t, [2]int{17, 7}, [2]int{hits, misses}, "each consult follows a failed call, and one report another process's commit: they decode; the rest use the kept engine")
}

// requireSameTree requires two workspaces to hold the same files, byte for
// byte (the lock file aside, which holds nothing).
func requireSameTree(t *testing.T, a, b, after string) {
	t.Helper()
	read := func(root string) map[string]string {
		files := map[string]string{}
		require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			rel, _ := filepath.Rel(root, path)
			files[rel] = string(data)
			return err
		}))
		return files
	}
	fa, fb := read(a), read(b)
	for rel, data := range fa {
		require.Contains(t, fb, rel, "after %s", after)
		require.True(t, data == fb[rel], "after %s: %s differs", after, rel)
	}
	require.Len(t, fb, len(fa), "after %s: the files", after)
}
