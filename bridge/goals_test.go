package bridge

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Goal ids count the workspace's goals (g1, g2, ...), not the journal's
// events, and the id given is recorded in the event, so verify replays it.
func TestGoalIDsCountGoals(t *testing.T) {
	b := newV5Workspace(t)
	reportV5(t, b, "t1", "read_file", "success")
	for i, want := range []string{"g1", "g2"} {
		out, err := b.Do(Call{Op: "goal add", Args: pyjson.Obj(pyjson.KV("content", "goal"+want))})
		require.NoError(t, err)
		require.Equal(t, want, must(out.Get("goal")).StrOf("id"), "goal %d", i)
		reportV5(t, b, "t1", "edit_file", "success")
	}
	verifyClean(t, b)
}

// A workspace whose goals were numbered by their events (an earlier
// release: g4, g7) replays those ids, and a goal added now gets the next
// number above the highest, never one already given.
func TestGoalIDsAfterEventNumberedGoals(t *testing.T) {
	ws := copyWorkspace(t, "../testdata/workspaces/ucs-v5-0362e14")
	b := New(Options{Workspace: ws, Now: testNow})
	_, err := b.Verify(VerifyOptions{})
	require.NoError(t, err)
	out, err := b.Do(Call{Op: "goal add", Args: pyjson.Obj(pyjson.KV("content", "after the upgrade"))})
	require.NoError(t, err)
	require.Equal(t, "g8", must(out.Get("goal")).StrOf("id"))
	out, err = b.Do(Call{Op: "goal add", Args: pyjson.Obj(pyjson.KV("content", "and another"))})
	require.NoError(t, err)
	require.Equal(t, "g9", must(out.Get("goal")).StrOf("id"))
	verifyClean(t, b)
	list, err := b.Do(Call{Op: "goal list", Args: pyjson.Obj(pyjson.KV("state", "all"))})
	require.NoError(t, err)
	var ids []string
	for _, g := range must(list.Get("goals")).Items() {
		ids = append(ids, g.StrOf("id"))
	}
	require.Equal(t, []string{"g8", "g9", "g4", "g7"}, ids) // open, then completed
}
