package bridge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestCoverage: coverage reads only, starts at 0 on a fresh workspace with
// every gap named, and rises as reports and a reflection for the task
// accumulate; a v2 workspace scores knowledge alone.
func TestCoverage(t *testing.T) {
	const task = "research competitor pricing"
	coverage := func(t *testing.T, b *Bridge) pyjson.Value {
		t.Helper()
		out, err := b.Do(Call{Op: "coverage", Args: pyjson.Obj(pyjson.KV("context", task),
			pyjson.KV("capabilities", []string{"web_fetch"}))})
		require.NoError(t, err)
		return out
	}
	score := func(v pyjson.Value) float64 {
		s, _ := v.Get("score")
		f, _ := s.Float()
		return f
	}
	ws := filepath.Join(t.TempDir(), "ws")
	b := New(Options{Workspace: ws, Now: testNow})
	_, err := b.Do(Call{Op: "init"})
	require.NoError(t, err)
	journal := func() []byte {
		data, err := os.ReadFile(filepath.Join(ws, "ucs", "state", "journal.jsonl"))
		require.NoError(t, err)
		return data
	}
	before := journal()
	fresh := coverage(t, b)
	assert.Equal(t, before, journal(), "coverage journals nothing")
	assert.Zero(t, score(fresh))
	gaps, _ := fresh.Get("gaps")
	assert.Contains(t, string(pyjson.AppendCompact(nil, gaps)), "no methodology for this kind of task")
	assert.Contains(t, string(pyjson.AppendCompact(nil, gaps)), "no reported outcome of")

	for range 5 {
		_, err := report(t, b, "web_fetch", `, "context": "research competitor pricing"`)
		require.NoError(t, err)
	}
	_, err = b.Do(Call{Op: "reflect", Input: input(t,
		`{"type": "post_task", "text": "Fetch whole pricing pages.", "capabilities": ["web_fetch"], "keywords": ["pricing", "competitor"]}`)})
	require.NoError(t, err)
	later := coverage(t, b)
	assert.Greater(t, score(later), score(fresh))
	k, _ := later.Get("knowledge")
	m, _ := k.Get("methodology")
	n, _ := m.Int()
	assert.Equal(t, int64(1), n)
	exp, _ := later.Get("experience")
	assert.Contains(t, string(pyjson.AppendCompact(nil, exp)), `{"capability":"web_fetch","outcomes":5.0,"successes":5.0}`)

	v2 := newWorkspace(t)
	out := coverage(t, v2)
	e, _ := out.Get("experience")
	assert.True(t, e.IsNull(), "v2 keeps no outcome counts")

	_, err = b.Do(Call{Op: "coverage"})
	assert.Equal(t, "missing_field", fault.AsError(err).Code)
}
