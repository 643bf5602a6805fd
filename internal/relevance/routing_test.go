package relevance

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// RoutingAt is the snapshot of the five best paths from the cursor, with
// the best artifacts only when asked for.
func TestRoutingAt(t *testing.T) {
	e := torusfield.New(torusfield.DefaultManifest(), torusfield.Options{})
	for range 3 {
		e.PhiCycle()
	}
	cursor := e.Cursor.Node
	paths := ScorePaths(e, nil, cursor, nil, nil)
	require.NotEmpty(t, paths)
	dump := func(v pyjson.Value) string { return string(pyjson.AppendCompact(nil, v)) }

	want := RoutingSnapshot(e, cursor, paths[:min(5, len(paths))], nil, nil, nil)
	assert.Equal(t, dump(want), dump(RoutingAt(e, nil, cursor, 0)))
	active, _ := RoutingAt(e, nil, cursor, 0).Get("active_artifacts")
	assert.Empty(t, active.Items(), "no artifacts unless asked for")

	w, a := Enrich(e, nil, torusfield.KindWormhole, 3), Enrich(e, nil, torusfield.KindAttractor, 3)
	want = RoutingSnapshot(e, cursor, paths[:min(5, len(paths))], nil, w, a)
	assert.Equal(t, dump(want), dump(RoutingAt(e, nil, cursor, 3)))
	top, _ := want.Get("top_paths")
	assert.LessOrEqual(t, len(top.Items()), 5)
}
