package bridge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

func newV3Workspace(t *testing.T) *Bridge {
	t.Helper()
	b := New(Options{Workspace: filepath.Join(t.TempDir(), "ws"), Now: testNow})
	out, err := b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV3))})
	require.NoError(t, err)
	steps, _ := out.GetOr("warmup_steps", pyjson.NullValue()).Int()
	arts, _ := out.GetOr("artifacts_after_warmup", pyjson.NullValue()).Int()
	require.Zero(t, steps, "v3 invents nothing before real actions")
	require.Zero(t, arts)
	return b
}

func consultV3(t *testing.T, b *Bridge, context string, greedy bool) pyjson.Value {
	t.Helper()
	args := pyjson.Obj(pyjson.KV("context", context))
	if greedy {
		args = args.With("greedy", true)
	}
	out, err := b.Do(Call{Op: "consult", Args: args})
	require.NoError(t, err)
	return out
}

func topOf(t *testing.T, consult pyjson.Value) string {
	t.Helper()
	paths, _ := consult.Get("suggested_paths")
	require.NotEmpty(t, paths.Items())
	return paths.Items()[0].StrOf("to")
}

func reportV3(t *testing.T, b *Bridge, body string) pyjson.Value {
	t.Helper()
	out, err := b.Do(Call{Op: "report", Input: input(t, body)})
	require.NoError(t, err)
	return out
}

// A v3 session: consult gives an advisory id and explained suggestions; a
// report that follows the top one is attributed to it and moves the
// estimate the way its outcome says; status counts how advice fared; the
// history verifies.
func TestV3Session(t *testing.T) {
	b := newV3Workspace(t)
	c := consultV3(t, b, "research competitor pricing", false)
	id := c.StrOf("advisory_id")
	require.Len(t, id, 16)
	assert.Equal(t, advice.ModelV3, c.StrOf("model"))
	paths, _ := c.Get("suggested_paths")
	p0 := paths.Items()[0]
	for _, key := range []string{"to", "score", "p_success", "chain", "components", "evidence", "why", "discovered"} {
		_, ok := p0.Get(key)
		assert.True(t, ok, key)
	}
	top := p0.StrOf("to")

	out := reportV3(t, b, `{"action": "`+top+`", "success": "success"}`)
	lv, _ := out.Get("learning")
	assert.Equal(t, id, lv.StrOf("advisory_id"))
	followed, _ := lv.Get("followed_advice")
	assert.True(t, followed.Bool())
	pb, _ := lv.GetOr("p_before", pyjson.NullValue()).Float()
	pa, _ := lv.GetOr("p_after", pyjson.NullValue()).Float()
	assert.Greater(t, pa, pb, "a success raises the estimate")
	terms, _ := lv.Get("context_terms")
	assert.Equal(t, []string{"competitor", "pric", "research"}, strs(terms), "the advice's context is the report's")

	// A failure lowers it, whatever the edge's cost.
	c = consultV3(t, b, "research competitor pricing", false)
	next := topOf(t, c)
	out = reportV3(t, b, `{"action": "`+next+`", "success": "failure", "context": "research competitor pricing"}`)
	lv, _ = out.Get("learning")
	pb, _ = lv.GetOr("p_before", pyjson.NullValue()).Float()
	pa, _ = lv.GetOr("p_after", pyjson.NullValue()).Float()
	assert.Less(t, pa, pb, "a failure lowers the estimate")

	st, err := b.Do(Call{Op: "status"})
	require.NoError(t, err)
	learning, _ := st.Get("learning")
	prec, _ := learning.Get("advisory_precision")
	fol, _ := prec.Get("followed")
	n, _ := fol.GetOr("reports", pyjson.NullValue()).Float()
	s, _ := fol.GetOr("successes", pyjson.NullValue()).Float()
	assert.Equal(t, 2.0, n)
	assert.Equal(t, 1.0, s)

	_, err = b.Check(false)
	require.NoError(t, err)
	_, err = b.Verify(VerifyOptions{})
	require.NoError(t, err)
}

func strs(v pyjson.Value) []string {
	var out []string
	for _, x := range v.Items() {
		out = append(out, x.Str())
	}
	return out
}

// Two tasks at the same cursor whose best next steps differ get different
// top picks, also for a wording of the task the model never saw.
func TestV3ContextSensitive(t *testing.T) {
	b := newV3Workspace(t)
	cursor := consultV3(t, b, "anything", true).StrOf("cursor")
	tasks := []struct{ context, paraphrase, good, bad string }{
		{"research competitor pricing on the web", "look up what competitors charge for pricing", "web_fetch", "write"},
		{"write the weekly summary report", "draft a summary report for this week", "write", "web_fetch"},
	}
	for round := 0; round < 6; round++ {
		for _, task := range tasks {
			for _, step := range []struct {
				action, success string
			}{{task.good, "success"}, {task.bad, "failure"}} {
				// Come back to the cursor, then take the step from it.
				reportV3(t, b, `{"action": "`+cursor+`", "success": "neutral"}`)
				reportV3(t, b, `{"action": "`+step.action+`", "success": "`+step.success+`", "context": "`+task.context+`"}`)
			}
		}
	}
	reportV3(t, b, `{"action": "`+cursor+`", "success": "neutral"}`)
	for _, task := range tasks {
		assert.Equal(t, task.good, topOf(t, consultV3(t, b, task.paraphrase, true)), task.paraphrase)
	}
	_, err := b.Verify(VerifyOptions{})
	require.NoError(t, err)
}

// A transition the manifest lacks is learned as what it is, and suggested
// from then on, marked discovered; check accepts it.
func TestV3DiscoveredTransition(t *testing.T) {
	b := newV3Workspace(t)
	cursor := consultV3(t, b, "anything", true).StrOf("cursor")
	e := b.engineForTest(t)
	var target string
	for _, n := range e.Graph.Nodes {
		if n != cursor && e.Graph.Find(cursor, n) < 0 {
			target = n
			break
		}
	}
	require.NotEmpty(t, target)
	for range 3 {
		out := reportV3(t, b, `{"action": "`+target+`", "success": "success", "context": "deploy the release"}`)
		lv, _ := out.Get("learning")
		d, _ := lv.Get("discovered")
		assert.True(t, d.Bool())
		reportV3(t, b, `{"action": "`+cursor+`", "success": "neutral"}`)
	}
	c := consultV3(t, b, "deploy the release", true)
	paths, _ := c.Get("suggested_paths")
	found := false
	for _, p := range paths.Items() {
		if p.StrOf("to") == target {
			found = true
			d, _ := p.Get("discovered")
			assert.True(t, d.Bool())
		}
	}
	assert.True(t, found, "the discovered transition is suggested")
	_, err := b.Check(false)
	require.NoError(t, err)
	_, err = b.Verify(VerifyOptions{})
	require.NoError(t, err)
}

// The same calls on two v3 workspaces give byte-identical state.
func TestV3Deterministic(t *testing.T) {
	run := func() []byte {
		b := newV3Workspace(t)
		for _, ctx := range []string{"fix the failing parser test", "research pricing", "fix the failing parser test"} {
			top := topOf(t, consultV3(t, b, ctx, false))
			reportV3(t, b, `{"action": "`+top+`", "success": "success"}`)
		}
		data, err := os.ReadFile(b.ws.Path(workspace.RelState))
		require.NoError(t, err)
		return data
	}
	assert.Equal(t, run(), run())
}

// sessionForTest loads the workspace as a reading call would; done ends
// its transaction (and releases the workspace).
func (b *Bridge) sessionForTest(t *testing.T) (s *session, done func()) {
	t.Helper()
	tx, err := b.ws.Begin(false)
	require.NoError(t, err)
	s, err = b.openSession(tx)
	require.NoError(t, err)
	return s, tx.Close
}

// engineForTest loads the workspace's engine as a call would.
func (b *Bridge) engineForTest(t *testing.T) *torusfield.Engine {
	t.Helper()
	s, done := b.sessionForTest(t)
	done()
	return s.engine
}
