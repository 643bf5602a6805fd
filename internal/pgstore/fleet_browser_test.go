package pgstore_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/browsertest"
)

// TestFleetPageInBrowser: view --fleet over the store of TestFleetShow,
// opened in a headless Chromium as the workspace page is tested
// (internal/cli's TestDashboardInBrowser): the operator's page draws every
// workspace, C marked private, and the fleet's transition with A's and B's
// evidence; an agent's page draws its own and its fleet's shared ones and
// says nothing of C; neither logs a console error or an exception.
func TestFleetPageInBrowser(t *testing.T) {
	browser := browsertest.Find(t)
	e, agent, op := fleetStore(t)
	dir := t.TempDir()
	eo := &env{t: t, url: withUser(e.url, op), cache: filepath.Join(dir, "op"), vars: e.vars}
	ea := &env{t: t, url: withUser(e.url, agent), cache: filepath.Join(dir, "agent"), vars: e.vars}

	page := filepath.Join(dir, "fleet.html")
	out := eo.must("default", "", "view", "--fleet", "--out", page)
	assert.Equal(t, `{"workspaces":3,"private":1,"fleets":1,"fleet_transitions":1,"fleet_transitions_total":1}`,
		gjson.Get(out, "shown").Raw, out)
	st, err := os.Stat(page)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "the page holds what the workspaces hold")

	step, problems := browsertest.Open(t, browser, page, 1280, 900)
	eval := func(js string) string {
		v, err := chromedp.Run(step, chromedp.Evaluate[string](js))
		require.NoError(t, err, js)
		return v
	}
	names := func() []string {
		var ns []string
		raw := eval(`JSON.stringify([...document.querySelectorAll("#workspaces-table tbody tr")].map(r => r.dataset.name))`)
		require.NoError(t, json.Unmarshal([]byte(raw), &ns))
		return ns
	}
	assert.Equal(t, []string{"A", "B", "C"}, names(), "every workspace, to the operator")
	assert.Equal(t, "1", eval(`document.querySelector('#workspaces-table tr[data-name="C"]').dataset.private`))
	assert.Equal(t, "0", eval(`document.querySelector('#workspaces-table tr[data-name="A"]').dataset.private`))
	assert.Contains(t, eval(`document.querySelector('#workspaces-table tr[data-name="C"]').textContent`), "private")
	assert.Contains(t, eval(`document.querySelector('#workspaces-table tr[data-name="A"]').textContent`), "1 methodology, 1 dead end")
	transition := eval(`document.querySelector('#transitions-table tr[data-from="read"][data-to="exec"]').textContent`)
	assert.Contains(t, transition, "A 4/4 (67%), B 1/2 (33%)")
	assert.NotContains(t, transition, "C ", "a private workspace's evidence is its own")
	assert.Equal(t, "2", eval(`String(document.querySelectorAll('#transitions-table .evidence-bar span').length)`))
	assert.Contains(t, eval(`document.getElementById("summary").textContent`), "3 workspaces (2 shared, 1 private) in 1 fleet")
	// The fleet filter: one fleet, then none that matches.
	choose := func(fleet string) {
		eval(`(() => { const s = document.getElementById("fleet-filter");
			if (![...s.options].some(o => o.value === ` + "`" + fleet + "`" + `)) s.append(new Option("x", ` + "`" + fleet + "`" + `));
			s.value = ` + "`" + fleet + "`" + `; s.dispatchEvent(new Event("change")); return ""; })()`)
	}
	rows := func(section string) string {
		return eval(`document.getElementById("` + section + `-body").dataset.rows`)
	}
	choose("default")
	assert.Equal(t, "3", rows("workspaces"))
	assert.Equal(t, "1", rows("transitions"))
	choose("elsewhere") // a fleet no workspace is in: both tables narrow to nothing
	assert.Equal(t, "0", rows("workspaces"))
	assert.Equal(t, "0", rows("transitions"))
	assert.Contains(t, eval(`document.getElementById("transitions-body").textContent`), "Nothing learned by this fleet yet.")
	choose("")
	assert.Equal(t, "1", rows("transitions"))
	shot, err := chromedp.Run(step, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	browsertest.KeepShot(t, "fleet.png", shot)
	assert.Empty(t, problems(), "the operator's page's console")

	// An agent's page: its own and the fleet's shared workspace only.
	page = filepath.Join(dir, "fleet-agent.html")
	ea.must("B", "", "view", "--fleet", "--out", page)
	raw, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), `"name":"C"`, "the private workspace is the operator's to see")
	step, problems = browsertest.Open(t, browser, page, 1280, 900)
	assert.Equal(t, []string{"A", "B"}, names())
	assert.Contains(t, eval(`document.getElementById("summary").textContent`), "2 workspaces (2 shared, 0 private)")
	assert.Empty(t, problems(), "the agent's page's console")
}
