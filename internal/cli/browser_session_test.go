package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/browsertest"
	"github.com/unified-cognitive-substrate/ucs/internal/bench/newuser"
	"github.com/unified-cognitive-substrate/ucs/internal/cli"
)

// TestDashboardNewUserSession builds the new user's workspace (the calls of
// internal/bench/newuser's session on ws, run in process, as the script
// newuser_session.txtar runs them), writes its dashboard and opens it in a
// headless Chromium: the page shows a chain for each of the four task
// types, distinct, each beginning with the rule the type was taught; every
// step of every chain on the page is the first suggestion of `ucs consult
// --context CTX --task-start` (the first step) or `--from` the step before,
// on the same workspace; and the console has no error or exception. The
// page's screenshot, 1200 pixels wide, is docs/dashboard.png: the test
// keeps it as dashboard-newuser.png (UCS_BROWSER_ARTIFACTS names a
// directory for it, else the test's temporary one).
func TestDashboardNewUserSession(t *testing.T) {
	browser := browsertest.Find(t)
	if testing.Short() {
		t.Skip("runs the new user's session, about 700 calls")
	}
	raw, err := os.ReadFile("../../testdata/manifests/coding.json")
	require.NoError(t, err)
	session, err := newuser.Generate(raw, newuser.DefaultSeed, false)
	require.NoError(t, err)

	// The session's calls run where the script runs them: in a directory
	// holding the manifest, where exec writes its --result-file.
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "coding.json"), raw, 0o644))
	t.Chdir(dir)
	env := map[string]string{"UCS_NOW": "2026-11-21T21:01:00Z", "HOME": filepath.Join(dir, "home")}
	getenv := func(k string) string { return env[k] }
	ws := filepath.Join(dir, "ws")
	ucs := func(input string, args ...string) (int, []byte) {
		var stdout, stderr bytes.Buffer
		code := cli.Run(append([]string{"--workspace", ws, "--compact"}, args...),
			cli.Env{Stdin: strings.NewReader(input), Stdout: &stdout, Stderr: &stderr, Getenv: getenv})
		return code, stdout.Bytes()
	}
	calls := 0
	for _, c := range session.Calls {
		if c.Workspace != "ws" {
			continue // the import's workspace: not the dashboard's
		}
		code, out := ucs(c.Input, c.Args...)
		require.Equal(t, c.Fails, code != 0, "ucs %s: exit %d: %s", c.Args, code, out)
		calls++
	}
	t.Logf("%d calls on ws", calls)

	page := filepath.Join(dir, "dashboard.html")
	code, out := ucs("", "view", "--out", page)
	require.Zero(t, code, "view: %s", out)

	step, problems := browsertest.Open(t, browser, page, 1200, 900)
	tasksJSON, err := chromedp.Run(step, chromedp.Evaluate[string](`JSON.stringify([...document.querySelectorAll(".task[data-chain]")].map((e) =>
		({context: e.querySelector("h3").textContent, chain: e.dataset.chain})))`))
	require.NoError(t, err)
	var tasks []struct{ Context, Chain string }
	require.NoError(t, json.Unmarshal([]byte(tasksJSON), &tasks))

	// Each task type's newest task on the page: its chain begins with the
	// rule it was taught, and the four are distinct.
	chains := map[string]string{}
	for _, k := range newuser.Kinds() {
		i := slices.IndexFunc(tasks, func(task struct{ Context, Chain string }) bool {
			return slices.Contains(k.Contexts, task.Context)
		})
		if !assert.GreaterOrEqual(t, i, 0, "no chain of a %s task on the page", k.Name) {
			continue
		}
		chain := strings.Fields(tasks[i].Chain)
		assert.Equal(t, k.Rule, chain[:min(len(chain), len(k.Rule))], "%s (%q): the taught rule first", k.Name, tasks[i].Context)
		chains[tasks[i].Chain] = k.Name
	}
	assert.Len(t, chains, 4, "four distinct chains, one per task type: %v", chains)

	// Every step of every chain is consult's first suggestion there.
	first := func(context string, at ...string) string {
		code, out := ucs("", append([]string{"consult", "--context", context, "--fields", "suggested_paths"}, at...)...)
		require.Zero(t, code, "consult: %s", out)
		var v struct{ Suggested_paths []struct{ To string } }
		require.NoError(t, json.Unmarshal(out, &v))
		if len(v.Suggested_paths) == 0 {
			return ""
		}
		return v.Suggested_paths[0].To
	}
	for _, task := range tasks {
		at := []string{"--task-start"}
		for _, s := range strings.Fields(task.Chain) {
			assert.Equal(t, first(task.Context, at...), s, "%q: the step after %v", task.Context, at)
			at = []string{"--from", s}
		}
	}

	// The page's top, as a person first sees it on a tall screen: the
	// tasks' chains, the advice and the graph; and the whole page.
	require.NoError(t, chromedp.Do(step, chromedp.EmulateViewport(1200, 2400)))
	top, err := chromedp.Run(step, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	browsertest.KeepShot(t, "dashboard-newuser.png", top)
	shot, err := chromedp.Run(step, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	browsertest.KeepShot(t, "dashboard-newuser-full.png", shot)
	assert.Empty(t, problems(), "the page's console")
}
