package bridge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// newV5Workspace makes a v5 workspace of the coding manifest
// (testdata/manifests/coding.json: 14 tools, four labels).
func newV5Workspace(t *testing.T) *Bridge {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "manifests", "coding.json"))
	require.NoError(t, err)
	return newV5WorkspaceOf(t, raw)
}

// newV5WorkspaceOf makes a v5 workspace of the manifest raw.
func newV5WorkspaceOf(t *testing.T, raw []byte) *Bridge {
	t.Helper()
	dir := t.TempDir()
	man := filepath.Join(dir, "manifest.json")
	require.NoError(t, os.WriteFile(man, raw, 0o600))
	b := New(Options{Workspace: filepath.Join(dir, "ws"), Now: testNow})
	_, err := b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("manifest", man), pyjson.KV("model", advice.ModelV5))})
	require.NoError(t, err)
	return b
}

func consultV5(t *testing.T, b *Bridge, task, context string, greedy bool) pyjson.Value {
	t.Helper()
	args := pyjson.Obj(pyjson.KV("context", context))
	if task != "" {
		args = args.With("task", task)
	}
	if greedy {
		args = args.With("greedy", true)
	}
	out, err := b.Do(Call{Op: "consult", Args: args})
	require.NoError(t, err)
	return out
}

func reportV5(t *testing.T, b *Bridge, task, action, success string) pyjson.Value {
	t.Helper()
	in := pyjson.Obj(pyjson.KV("action", action), pyjson.KV("success", success))
	if task != "" {
		in = in.With("task", task)
	}
	out, err := b.Do(Call{Op: "report", Input: in})
	require.NoError(t, err)
	lv, _ := out.Get("learning")
	return lv
}

func suggestions(c pyjson.Value) []string {
	paths, _ := c.Get("suggested_paths")
	var out []string
	for _, p := range paths.Items() {
		out = append(out, p.StrOf("to"))
	}
	return out
}

// verifyClean runs status, check and verify, each must pass.
func verifyClean(t *testing.T, b *Bridge) {
	t.Helper()
	for _, op := range []string{"status", "check", "verify"} {
		_, err := b.Do(Call{Op: op})
		require.NoError(t, err, op)
	}
}

// A new task starts at its start: its first suggestion is what earlier
// tasks did first, whatever tool the previous task ended on; within a task
// the agent's own steps are learned from where it was.
func TestV5TaskStartsAtStart(t *testing.T) {
	b := newV5Workspace(t)
	for i := range 6 {
		task := "fix-" + itoa(i)
		consultV5(t, b, task, "fix the failing test in the parser", true)
		for _, a := range []string{"read_file", "edit_file", "run_tests", "git_commit"} {
			reportV5(t, b, task, a, "success")
		}
	}
	c := consultV5(t, b, "fix-new", "fix the failing test in the lexer", true)
	assert.Equal(t, "read_file", suggestions(c)[0], "a task's first step, not what follows git_commit")
	paths, _ := c.Get("suggested_paths")
	ev, _ := paths.Items()[0].Get("evidence")
	after, _ := ev.Get("after")
	assert.True(t, after.IsNull(), "at the task's start nothing came before")
	lv := reportV5(t, b, "fix-new", "read_file", "success")
	assert.Equal(t, "(start) → read_file", lv.StrOf("transition"))
	c = consultV5(t, b, "fix-new", "fix the failing test in the lexer", true)
	assert.Equal(t, "edit_file", suggestions(c)[0])
	assert.Contains(t, mustItem(c, 0).StrOf("why"), "after read_file, the next successful step was edit_file")
	verifyClean(t, b)
}

func mustItem(c pyjson.Value, i int) pyjson.Value {
	paths, _ := c.Get("suggested_paths")
	return paths.Items()[i]
}

// After a failed step the next success is learned from where the agent
// was, never as a move from the tool that failed, and nothing is
// discovered from a failure or from the workspace's initial cursor.
func TestV5CreditAfterFailure(t *testing.T) {
	b := newV5Workspace(t)
	reportV5(t, b, "t1", "read_file", "success")
	lv := reportV5(t, b, "t1", "web_search", "failure")
	assert.Equal(t, "read_file → web_search", lv.StrOf("transition"))
	lv = reportV5(t, b, "t1", "run_tests", "success")
	assert.Equal(t, "read_file → run_tests", lv.StrOf("transition"), "from the trail, not from web_search")
	discovered, _ := lv.Get("discovered")
	assert.False(t, discovered.Bool(), "read_file → run_tests is an edge")
	lv = reportV5(t, b, "t1", "deploy", "success")
	discovered, _ = lv.Get("discovered")
	assert.True(t, discovered.Bool(), "run_tests → deploy is no edge: the agent's own success discovered it")

	out, err := b.Do(Call{Op: "show"})
	require.NoError(t, err)
	ts, _ := out.Get("transitions")
	var got []string
	for _, tr := range ts.Items() {
		d, _ := tr.Get("discovered")
		got = append(got, tr.StrOf("from")+">"+tr.StrOf("to")+":"+map[bool]string{true: "d", false: ""}[d.Bool()])
	}
	assert.ElementsMatch(t, []string{"read_file>web_search:", "read_file>run_tests:", "run_tests>deploy:d"}, got)
	verifyClean(t, b)
}

// A dead end penalises only the capabilities it names: its keyword's label
// does not push down the tools the label groups; a greedy consult ranks by
// the estimate alone.
func TestV5DeadEndPenalisesWhatItNames(t *testing.T) {
	b := newV5Workspace(t)
	for i := range 5 {
		task := "inc-" + itoa(i)
		reportV5(t, b, task, "read_logs", "success")
		reportV5(t, b, task, "git_log", "success")
	}
	_, err := b.Do(Call{Op: "reflect", Input: input(t, `{"type": "dead_end", "text": "editing the config by hand during an incident broke staging",
		"capabilities": ["edit_file"], "keywords": ["incident", "config"], "topic": "incident config edits", "why_closed": "it broke staging"}`)})
	require.NoError(t, err)
	c := consultV5(t, b, "inc-new", "incident: the config service is down", false)
	pen, _ := c.Get("penalty_applied")
	assert.Equal(t, []string{"edit_file"}, keysOf(pen), "the label incident (read_logs, git_log) is not penalised")
	assert.Equal(t, "read_logs", suggestions(c)[0])
	g := consultV5(t, b, "inc-new", "incident: the config service is down", true)
	for _, p := range must(g.Get("suggested_paths")).Items() {
		comp, _ := p.Get("components")
		x, _ := comp.GetOr("penalty", pyjson.NullValue()).Float()
		assert.Zero(t, x, "greedy: no penalty")
	}
	verifyClean(t, b)
}

func must(v pyjson.Value, ok bool) pyjson.Value { return v }

func keysOf(v pyjson.Value) []string {
	var out []string
	for _, m := range v.Members() {
		out = append(out, m.Key)
	}
	return out
}

// Explanations give whole counts, and every suggestion's evidence is its
// own: an untried step has none.
func TestV5WholeCounts(t *testing.T) {
	b := newV5Workspace(t)
	for i := range 3 {
		task := "t" + itoa(i)
		reportV5(t, b, task, "grep", "success")
		reportV5(t, b, task, "read_file", "success")
	}
	c := consultV5(t, b, "t-next", "find where the parser fails", true)
	why := mustItem(c, 0).StrOf("why")
	assert.Equal(t, "grep", suggestions(c)[0])
	assert.Contains(t, why, "3 of 3 times")
	for _, p := range must(c.Get("suggested_paths")).Items() {
		if p.StrOf("to") == "deploy" {
			assert.Contains(t, p.StrOf("why"), "untried", "no evidence is read from another step")
		}
		assert.NotRegexp(t, `\d\.\d+ of`, p.StrOf("why"))
	}
}

// A report that takes the top suggestion of advice teaches the step's
// success, but is not counted as the agent's choice; after a probe it is.
func TestV5AdviceDoesNotCountForItself(t *testing.T) {
	b := newV5Workspace(t)
	c := consultV5(t, b, "a", "write the release notes", false)
	top := suggestions(c)[0]
	lv := reportV5(t, b, "a", top, "success")
	counted, _ := lv.Get("counted_as_choice")
	assert.False(t, counted.Bool())
	c = consultV5(t, b, "b", "write the release notes again", true)
	lv = reportV5(t, b, "b", suggestions(c)[0], "success")
	counted, _ = lv.Get("counted_as_choice")
	assert.True(t, counted.Bool(), "a probe is not advice")
	verifyClean(t, b)
}

// A v4 workspace keeps its model until migrate --model v5, which learns
// its history again; verify holds across it, and a rating and an
// amendment after it replay.
func TestV5Migrate(t *testing.T) {
	b := New(Options{Workspace: filepath.Join(t.TempDir(), "ws"), Now: testNow})
	_, err := b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV4))})
	require.NoError(t, err)
	for range 3 {
		reportV3(t, b, `{"action": "web_fetch", "success": "success", "context": "research pricing"}`)
		reportV3(t, b, `{"action": "read", "success": "failure", "context": "research pricing"}`)
	}
	out, err := b.Do(Call{Op: "migrate", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV5))})
	require.NoError(t, err)
	n, _ := out.GetOr("reports_learned", pyjson.NullValue()).Int()
	assert.Equal(t, int64(6), n)
	st, err := b.Do(Call{Op: "status"})
	require.NoError(t, err)
	lm, _ := st.Get("learning")
	assert.Equal(t, advice.ModelV5, lm.StrOf("model"))
	reportV3(t, b, `{"action": "web_fetch", "success": "success", "context": "research pricing"}`)
	verifyClean(t, b)
	// And back: v4 again, then v5 again, learns afresh.
	_, err = b.Do(Call{Op: "migrate", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV4))})
	require.NoError(t, err)
	_, err = b.Do(Call{Op: "migrate", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV5))})
	require.NoError(t, err)
	verifyClean(t, b)
}

// A rating teaches the success model the verdict at the state the report
// was learned in; an amendment takes the report's count back and counts
// the corrected step; both replay.
func TestV5RateAndAmend(t *testing.T) {
	b := newV5Workspace(t)
	reportV5(t, b, "a", "read_file", "success") // event 2
	reportV5(t, b, "a", "edit_file", "success") // event 3
	rate := func(seq int, success string) pyjson.Value {
		out, err := b.Do(Call{Op: "rate", Args: pyjson.Obj(pyjson.KV("seq", seq), pyjson.KV("success", success), pyjson.KV("by", "operator"))})
		require.NoError(t, err)
		lv, _ := out.Get("learning")
		return lv
	}
	lv := rate(3, "failure")
	assert.Equal(t, "read_file → edit_file", lv.StrOf("transition"))
	pb, _ := lv.GetOr("p_before", pyjson.NullValue()).Float()
	pa, _ := lv.GetOr("p_after", pyjson.NullValue()).Float()
	assert.Less(t, pa, pb, "a failure verdict lowers the step's success")

	out, err := b.Do(Call{Op: "amend", Args: pyjson.Obj(pyjson.KV("seq", 3), pyjson.KV("action", "write_file"))})
	require.NoError(t, err)
	lv, _ = out.Get("learning")
	assert.Equal(t, "read_file → write_file", lv.StrOf("transition"))
	sh, err := b.Do(Call{Op: "show"})
	require.NoError(t, err)
	var got []string
	for _, tr := range must(sh.Get("transitions")).Items() {
		got = append(got, tr.StrOf("from")+">"+tr.StrOf("to")+":"+tr.StrOf("successes"))
	}
	ts, _ := sh.Get("transitions")
	for _, tr := range ts.Items() {
		if tr.StrOf("to") == "edit_file" {
			t.Errorf("the amended step is still counted: %v", tr)
		}
	}
	assert.Len(t, got, 1, "read_file → write_file only: %v", got)
	verifyClean(t, b)
}

// A task id with a control character is refused before anything is
// touched: v5's keys join their parts with one.
func TestV5TaskIDIsText(t *testing.T) {
	b := newV5Workspace(t)
	_, err := b.Do(Call{Op: "consult", Args: pyjson.Obj(pyjson.KV("context", "fix it"), pyjson.KV("task", "a\x1fb"))})
	require.Error(t, err)
	assert.Equal(t, "invalid_value", fault.AsError(err).Code)
	_, err = b.Do(Call{Op: "report", Input: pyjson.Obj(pyjson.KV("action", "read_file"), pyjson.KV("success", "success"), pyjson.KV("task", "a\nb"))})
	require.Error(t, err)
	assert.Equal(t, "invalid_value", fault.AsError(err).Code)
	verifyClean(t, b)
}
