package torusfield

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// restored is the engine RestoreBytes makes of e's state file.
func restored(t *testing.T, e *Engine) *Engine {
	t.Helper()
	n := New(e.manifest, Options{})
	require.NoError(t, n.RestoreBytes(e.AppendState(nil), nil))
	return n
}

// TestSettle: an engine that ran (more θ steps than the file keeps,
// artifacts promoted out of score order, the generator moved on) is, once
// settled, the engine a process restores from its state file, hidden
// state and all; and it goes on as that engine does.
func TestSettle(t *testing.T) {
	for _, steps := range []int{0, 1, 30, 200, 700} {
		e := bootAegis(t)
		e.Run(steps)
		e.Settle()
		r := restored(t, e)
		require.True(t, reflect.DeepEqual(r, e), "after %d steps", steps)
		e.Run(60)
		r.Run(60)
		require.Equal(t, string(r.AppendState(nil)), string(e.AppendState(nil)), "the same steps after %d", steps)
	}
}

// TestClone: a clone is the engine, and running it changes nothing of
// the original (they share only what no operation changes).
func TestClone(t *testing.T) {
	e := bootAegis(t)
	e.Settle()
	before := string(e.AppendState(nil))
	c := e.Clone()
	require.True(t, reflect.DeepEqual(e, c))
	c.PrepareContextEnergy(c.Manifest().Names()[:2], 1.5, 5)
	c.Warm(15)
	c.Run(300)
	for _, a := range c.Artifacts.All() {
		a.setLastDetectedT(999)
	}
	require.NotEqual(t, before, string(c.AppendState(nil)))
	require.Equal(t, before, string(e.AppendState(nil)), "the original is as it was")
	require.True(t, reflect.DeepEqual(restored(t, e), e), "and restores as it did")
}
