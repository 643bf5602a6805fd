package torusfield

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWarm pins Warm to the loop consult ran inline before it became a
// method: diffusion, decay, then the scheduled injections, n times, with
// the cursor and the step counter left where they were.
func TestWarm(t *testing.T) {
	a, b := bootAegis(t), bootAegis(t)
	a.PrepareContextEnergy(a.Manifest().Names()[:1], 1.5, 5)
	b.PrepareContextEnergy(b.Manifest().Names()[:1], 1.5, 5)
	a.Warm(15)
	for range 15 {
		b.Grid.Diffuse(FieldEnergy, b.ThetaMix, b.PhiMix)
		b.Grid.Decay(b.LeakDecay)
		b.RunInjections()
	}
	assert.Equal(t, b.Grid.fields, a.Grid.fields)
	assert.Equal(t, b.Grid.T, a.Grid.T)
	assert.Equal(t, b.Cursor, a.Cursor)
}
