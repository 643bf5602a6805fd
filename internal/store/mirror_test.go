package store

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// newWorkspace makes a directory workspace of agent name that reported
// read then exec, with exec's outcomes as given.
func newWorkspace(t *testing.T, dir, name string, outcomes ...string) {
	t.Helper()
	b := bridge.New(bridge.Options{Workspace: dir, AgentID: name, Now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)})
	_, err := b.Do(bridge.Call{Op: "init", Args: pyjson.Obj(pyjson.KV("model", "v4"))})
	require.NoError(t, err)
	for _, o := range outcomes {
		for _, in := range []string{`{"action": "read", "success": "neutral", "context": "deploy"}`,
			`{"action": "exec", "success": "` + o + `", "context": "deploy"}`} {
			v, err := pyjson.Parse([]byte(in))
			require.NoError(t, err)
			_, err = b.Do(bridge.Call{Op: "report", Input: v})
			require.NoError(t, err)
		}
	}
}

// A store's fleet listing (Mirror.Fleet) reaches show --fleet whole: each
// workspace with its fleet, privacy and owner, the caller's own mirror
// never opened, and the fleet's transitions from the shared ones only. A
// directory with peers (Bridge.AddPeer) is a fleet too; one without is
// no_fleet.
func TestOnMirrorFleet(t *testing.T) {
	root := t.TempDir()
	a, b, c := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "c")
	newWorkspace(t, a, "a", "success", "success")
	newWorkspace(t, b, "b", "failure")
	newWorkspace(t, c, "c", "failure", "failure", "failure")
	m := Mirror{Dir: filepath.Join(root, "not-there"), Fleet: true, Peers: []Peer{
		{Name: "a", Dir: a, Fleet: "team", Owner: "role_a"},
		{Name: "b", Dir: b, Fleet: "team"},
		{Name: "c", Dir: c, Fleet: "team", Private: true, Owner: "role_c"},
	}}
	show := pyjson.Obj(pyjson.KV("fleet", true))
	out, err := OnMirror(bridge.Options{}, m, "a", false).Do(bridge.Call{Op: "show", Args: show})
	require.NoError(t, err)
	raw := string(pyjson.AppendCompact(nil, out))
	assert.Equal(t, `["a","b","c"]`, gjson.Get(raw, "workspaces.#.name").Raw)
	assert.Equal(t, `["role_a",null,"role_c"]`, gjson.Get(raw, "workspaces.#.owner").Raw)
	assert.Equal(t, `[false,false,true]`, gjson.Get(raw, "workspaces.#.private").Raw)
	assert.Equal(t, `[4,2,6]`, gjson.Get(raw, "workspaces.#.reports").Raw)
	assert.Equal(t, `{"fleet":"team","from":"read","to":"exec","successes":2.0,"of":3.0,"rate":0.6667,"evidence":[{"workspace":"a","successes":2.0,"of":2.0,"share":0.6667},{"workspace":"b","successes":0.0,"of":1.0,"share":0.3333}]}`,
		gjson.Get(raw, "fleet_transitions.0").Raw)
	assert.NoDirExists(t, m.Dir, "the caller's own mirror is not opened")

	// The table, through Options.Output.
	var table bytes.Buffer
	out, err = OnMirror(bridge.Options{Output: &table}, m, "a", false).Do(bridge.Call{Op: "show",
		Args: pyjson.Obj(pyjson.KV("fleet", true), pyjson.KV("format", "table"))})
	require.NoError(t, err)
	assert.True(t, out.IsNull())
	assert.Contains(t, table.String(), "a 2/2, b 0/1")

	// The page, inline.
	out, err = OnMirror(bridge.Options{}, m, "a", false).Do(bridge.Call{Op: "view",
		Args: pyjson.Obj(pyjson.KV("fleet", true), pyjson.KV("inline", true))})
	require.NoError(t, err)
	page := string(pyjson.AppendCompact(nil, out))
	assert.Equal(t, `{"workspaces":3,"private":1,"fleets":1,"fleet_transitions":1,"fleet_transitions_total":1}`, gjson.Get(page, "shown").Raw)
	assert.Contains(t, gjson.Get(page, "html").String(), `"name":"c"`)

	// A directory with peers: they are its fleet (no store to say more).
	dir := bridge.New(bridge.Options{Workspace: a})
	dir.AddPeer("b", b)
	out, err = dir.Do(bridge.Call{Op: "show", Args: show})
	require.NoError(t, err)
	assert.Equal(t, `["b"]`, gjson.Get(string(pyjson.AppendCompact(nil, out)), "workspaces.#.name").Raw)

	// A directory alone has no fleet.
	_, err = bridge.New(bridge.Options{Workspace: a}).Do(bridge.Call{Op: "show", Args: show})
	var fe *fault.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, fault.CodeNoFleet, fe.Code)
	assert.Equal(t, fault.KindBadInput, fe.Kind)
}
