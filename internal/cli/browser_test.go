package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/browsertest"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// TestDashboardInBrowser runs the demo (scripts/demo.sh) with a ucs built
// from this tree, opens the dashboard it writes in a headless Chromium and
// checks what the page draws: no console error or exception, every
// capability and edge of the workspace, the advice consult gives for a
// context chosen on the page, and filters that change the graph. A
// full-page screenshot is kept (UCS_BROWSER_ARTIFACTS names a directory
// for it, else the test's temporary one).
func TestDashboardInBrowser(t *testing.T) {
	browser := browsertest.Find(t)
	if testing.Short() {
		t.Skip("builds ucs and runs the demo")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("the demo needs bash")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "ucs")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/ucs")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	ws, page := filepath.Join(dir, "ws"), filepath.Join(dir, "dashboard.html")
	demo := exec.Command(bash, "../../scripts/demo.sh", bin)
	demo.Env = append(os.Environ(), "UCS_DEMO_WORKSPACE="+ws, "UCS_DEMO_DASHBOARD="+page, "UCS_WORKSPACE=")
	out, err = demo.CombinedOutput()
	require.NoError(t, err, "demo: %s", out)
	require.Contains(t, string(out), "dashboard: "+page)

	// What the workspace holds: its pinned manifest's graph, and the
	// transitions learned beside it (the view's answer counts them).
	raw, err := os.ReadFile(filepath.Join(ws, "ucs", "state", "manifest.json"))
	require.NoError(t, err)
	man, err := torusfield.ParseManifest(raw)
	require.NoError(t, err)
	g := torusfield.New(man, torusfield.Options{}).Graph
	ucs := func(args ...string) map[string]any {
		cmd := exec.Command(bin, append([]string{"--workspace", ws, "--compact"}, args...)...)
		out, err := cmd.Output()
		require.NoError(t, err, "ucs %s", args)
		var v map[string]any
		require.NoError(t, json.Unmarshal(out, &v), "%s", out)
		return v
	}
	show := ucs("show")
	discovered := 0
	for _, tr := range show["transitions"].([]any) {
		m := tr.(map[string]any)
		if g.Find(m["from"].(string), m["to"].(string)) < 0 {
			discovered++
		}
	}

	step, problems := browsertest.Open(t, browser, page, 1280, 1000)
	eval := func(js string) string {
		v, err := chromedp.Run(step, chromedp.Evaluate[string](js))
		require.NoError(t, err, js)
		return v
	}

	// Every capability and edge of the workspace is drawn.
	assert.Equal(t, fmt.Sprint(len(g.Nodes)), eval(`document.getElementById("graph-svg").dataset.nodes`))
	assert.Equal(t, fmt.Sprint(len(g.Nodes)), eval(`String(document.querySelectorAll("#graph-svg g.node").length)`))
	edges := len(g.Edges) + discovered
	assert.Equal(t, fmt.Sprint(edges), eval(`document.getElementById("graph-svg").dataset.edges`))
	assert.Equal(t, fmt.Sprint(edges), eval(`String(document.querySelectorAll("#graph-svg path.edge").length)`))

	// Each consulted context shows consult's top suggestion; the page's
	// second context is chosen, then consult asked (which commits: last).
	options := eval(`JSON.stringify([...document.querySelectorAll("#advice-context option")].map(o => o.textContent))`)
	var contexts []string
	require.NoError(t, json.Unmarshal([]byte(options), &contexts))
	require.GreaterOrEqual(t, len(contexts), 2, "the demo consults twice")
	eval(`(() => { const s = document.getElementById("advice-context"); s.value = "1"; s.dispatchEvent(new Event("change")); return ""; })()`)
	top := eval(`document.querySelector("#advice-body tbody tr").dataset.to`)
	assert.Equal(t, top, eval(`document.getElementById("advice").dataset.top`))

	// The filters change what is drawn.
	eval(`(() => { const c = document.getElementById("f-learned"); c.checked = true; c.dispatchEvent(new Event("change")); return ""; })()`)
	learned := eval(`document.getElementById("graph-svg").dataset.edges`)
	assert.NotEqual(t, fmt.Sprint(edges), learned, "learned transitions only")
	assert.Equal(t, fmt.Sprint(len(show["transitions"].([]any))), learned, "the learned transitions, as show lists them")
	eval(`(() => { const c = document.getElementById("f-learned"); c.checked = false; c.dispatchEvent(new Event("change"));
		const s = document.getElementById("f-context"); s.value = s.options[1].value; s.dispatchEvent(new Event("change")); return ""; })()`)
	byContext := eval(`document.getElementById("graph-svg").dataset.edges`)
	assert.NotEqual(t, fmt.Sprint(edges), byContext, "one context's edges")
	eval(`(() => { const s = document.getElementById("f-context"); s.value = ""; s.dispatchEvent(new Event("change")); return ""; })()`)

	shot, err := chromedp.Run(step, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	browsertest.KeepShot(t, "dashboard.png", shot)

	assert.Empty(t, problems(), "the page's console")

	advice := ucs("consult", "--context", contexts[1], "--fields", "suggested_paths")
	paths := advice["suggested_paths"].([]any)
	require.NotEmpty(t, paths)
	assert.Equal(t, paths[0].(map[string]any)["to"], top, "the page's top suggestion for %q is consult's", contexts[1])
}
