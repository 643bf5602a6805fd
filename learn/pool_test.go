package learn

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pool of the fleet's models: a transition one agent learned works
// starts positive for the new agent, but less certain than for the agent
// that learned it; counts are halved and averaged; a new agent's own
// outcomes then move it; the pool is deterministic.
func TestPool(t *testing.T) {
	ctx := Context{Terms: []string{"deploy", "service"}}
	a, b := New(DefaultParams), New(DefaultParams)
	for i := range 20 {
		a.Update(ctx, "read", "exec", 0, Outcome{Success: 1, Weight: 1, Clock: int64(i)})
		b.Update(ctx, "read", "write", 0, Outcome{Success: 0, Weight: 1, Clock: int64(i)})
	}
	pool := Pool([]*Model{a, b}, DefaultParams, 0.5)
	fresh := New(DefaultParams)
	for _, c := range []struct {
		to   string
		sign float64
	}{{"exec", 1}, {"write", -1}} {
		got := pool.Estimate(ctx, "read", c.to, 0)
		mine := a.Estimate(ctx, "read", c.to, 0)
		if c.sign < 0 {
			mine = b.Estimate(ctx, "read", c.to, 0)
		}
		assert.Greater(t, c.sign*got.LogOdds, 0.0, "%s: the fleet's verdict carries over", c.to)
		assert.Less(t, math.Abs(got.LogOdds), math.Abs(mine.LogOdds), "%s: averaged, weaker than the learner's", c.to)
		assert.Greater(t, got.SD, mine.SD, "%s: counted half, less certain", c.to)
		assert.Less(t, got.SD, fresh.Estimate(ctx, "read", c.to, 0).SD+1e-9, "%s: but more than nothing", c.to)
	}
	pairs := pool.Pairs()
	require.Len(t, pairs, 2)
	assert.InDelta(t, 0.5*20/2, pairs[0].N, 1e-9, "counts: averaged over the 2 models, halved")
	assert.Equal(t, int64(0), pool.Clock)
	assert.Equal(t, pool.AppendJSON(nil), Pool([]*Model{a, b}, DefaultParams, 0.5).AppendJSON(nil), "deterministic")

	// The new agent keeps its own posterior from there.
	for i := range 10 {
		pool.Update(ctx, "read", "exec", 0, Outcome{Success: 0, Weight: 1, Clock: int64(i)})
	}
	assert.Less(t, pool.Estimate(ctx, "read", "exec", 0).LogOdds, 0.0, "its own failures overturn the fleet's verdict")
	assert.Greater(t, a.Estimate(ctx, "read", "exec", 0).LogOdds, 0.0, "the peers' models are untouched")

	assert.Empty(t, Pool(nil, DefaultParams, 0.5).Pairs())
}
