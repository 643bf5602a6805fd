package history

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// TestReadPeriod: a period reads the actions from its start on, counted,
// the twenty newest methodology entries, the five newest PP snapshots and
// the trend of the ten newest; its goals are those closed in it.
func TestReadPeriod(t *testing.T) {
	var actions, meth, pp []pyjson.Value
	for i, ts := range []string{"2026-11-01T00:00:00+00:00", "2026-11-10T00:00:00+00:00", "2026-11-11T00:00:00+00:00"} {
		actions = append(actions, pyjson.Obj(pyjson.KV("timestamp", ts), pyjson.KV("action", []string{"a", "b", "b"}[i]), pyjson.KV("success", "success")))
	}
	for i := range 25 {
		meth = append(meth, pyjson.Obj(pyjson.KV("summary", "m"+itoa(i)), pyjson.KV("date", "2026-11-20")))
	}
	for i := range 12 {
		pp = append(pp, pyjson.Obj(pyjson.KV("health", 0.1*float64(i))))
	}
	tx := testWorkspace(t, map[string][]pyjson.Value{workspace.RelActionLog: actions, workspace.RelMethodology: meth, workspace.RelPPHistory: pp})
	e := torusfield.New(torusfield.DefaultManifest(), torusfield.Options{})
	p, err := ReadPeriod(tx, e, "2026-11-05", "2026-11-21T00:00:00+00:00")
	require.NoError(t, err)
	assert.Len(t, p.Actions, 2)
	require.Len(t, p.Allocations, 1)
	assert.Equal(t, "b", p.Allocations[0].Action)
	assert.Len(t, p.Methodology, 20)
	assert.Equal(t, "m5", p.Methodology[0].StrOf("summary"))
	assert.Len(t, p.Snapshots, 5)
	assert.Equal(t, TrendImproving, p.Trend)
	trend, err := ReadTrend(tx)
	require.NoError(t, err)
	assert.Equal(t, p.Trend, trend)

	_, ok := p.Value().Get("goals")
	assert.False(t, ok, "no goals: the reference's answer")
	p.Goals = &goal.Book{}
	_, ok = p.Value().Get("goals")
	assert.False(t, ok, "an empty book: the reference's answer")
	p.Goals = &goal.Book{Closed: []*goal.Goal{{ID: "g1", State: goal.Completed, Closed: "2026-11-06T00:00:00+00:00"},
		{ID: "g2", State: goal.Completed, Closed: "2026-11-01T00:00:00+00:00"}}}
	closed, ok := p.Value().Get("goals")
	require.True(t, ok)
	n, _ := closed.GetOr("completed", pyjson.IntValue(-1)).Int()
	assert.Equal(t, int64(1), n, "only the goal closed in the period")
}

func itoa(i int) string { return string(pyjson.AppendCompact(nil, pyjson.IntValue(int64(i)))) }
