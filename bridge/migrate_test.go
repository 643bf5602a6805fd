package bridge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace/workspacetest"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// copyWorkspace copies a committed fixture workspace into a temporary
// directory (tests must not change testdata).
func copyWorkspace(t *testing.T, fixture string) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "ws")
	require.NoError(t, os.CopyFS(ws, os.DirFS(fixture)))
	return ws
}

const fixtureV010 = "../testdata/workspaces/ucs-0.1.0"

// A workspace written by ucs 0.1.0 (format 1) opens as it is, is migrated
// by its first change with a backup, and passes check and verify before
// and after: verify replays its format-1 events in format 1, the migrate
// event, and the events after it in format 2.
func TestMigrateReleaseWorkspace(t *testing.T) {
	ws := copyWorkspace(t, fixtureV010)
	b := New(Options{Workspace: ws, Now: testNow})
	before, err := b.ws.StateMeta()
	require.NoError(t, err)
	require.Equal(t, 1, before.Format)

	_, err = b.Check(false)
	require.NoError(t, err)
	v, err := b.Verify(VerifyOptions{})
	require.NoError(t, err)
	events, _ := v.GetOr("events", pyjson.NullValue()).Int()
	require.Equal(t, before.Seq, events)

	// A read leaves the format alone.
	_, err = b.Do(Call{Op: "status"})
	require.NoError(t, err)
	m, err := b.ws.StateMeta()
	require.NoError(t, err)
	require.Equal(t, 1, m.Format)

	// A rejected change migrates nothing.
	_, err = b.Do(Call{Op: "report", Input: input(t, `{"action": "read", "success": "maybe"}`)})
	require.Error(t, err)
	m, _ = b.ws.StateMeta()
	require.Equal(t, 1, m.Format)

	out, err := report(t, b, "read")
	require.NoError(t, err)
	assert.Contains(t, string(pyjson.Canonical(out)), "migrated the workspace from format 1 to 2")
	m, err = b.ws.StateMeta()
	require.NoError(t, err)
	assert.Equal(t, WorkspaceFormat, m.Format)
	assert.Equal(t, advice.ModelV2, m.Model)
	assert.Equal(t, before.Seq+2, m.Seq, "one migrate event, then the report")

	// The backup holds the format-1 state as it was.
	backup, err := os.ReadFile(filepath.Join(ws, "ucs/state/backup/migrate-v1-v2", "torusfield_state.json"))
	require.NoError(t, err)
	old, err := os.ReadFile(filepath.Join(fixtureV010, "ucs/state/torusfield_state.json"))
	require.NoError(t, err)
	assert.Equal(t, old, backup)

	// Files are private now.
	st, err := os.Stat(filepath.Join(ws, "ucs/state/journal.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	_, err = b.Check(false)
	require.NoError(t, err)
	v, err = b.Verify(VerifyOptions{})
	require.NoError(t, err, "verify after migration")
	verified, _ := v.GetOr("verified", pyjson.NullValue()).Int()
	assert.Equal(t, m.Seq, verified)

	// The events say what wrote them.
	last, ok, err := b.ws.LastEvent()
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, workspace.EventFormat, last.Format)
	assert.Equal(t, advice.ModelV2, last.Model)
	assert.Equal(t, "default", last.Agent)
	mig, err := b.ws.EventAt(before.Seq + 1)
	require.NoError(t, err)
	assert.Equal(t, "migrate", mig.StrOf("op"))

	// Verify from the snapshots the old release kept, too.
	_, err = b.Verify(VerifyOptions{FromSnapshot: true})
	require.NoError(t, err)
}

// The agent id shapes the state (init records it in the meta), so it is
// in the event: verify of an untouched workspace of a named agent passes.
func TestVerifyNamedAgent(t *testing.T) {
	b := New(Options{Workspace: filepath.Join(t.TempDir(), "ws"), Now: testNow, AgentID: "a"})
	_, err := b.Do(Call{Op: "init"})
	require.NoError(t, err)
	_, err = b.Verify(VerifyOptions{})
	require.NoError(t, err)
	_, err = report(t, b, "read")
	require.NoError(t, err)
	// A later call by another agent id is recorded as such and verifies.
	other := New(Options{Workspace: b.opts.Workspace, Now: testNow, AgentID: "b"})
	_, err = report(t, other, "web_fetch")
	require.NoError(t, err)
	_, err = other.Verify(VerifyOptions{})
	require.NoError(t, err)
	last, _, err := b.ws.LastEvent()
	require.NoError(t, err)
	assert.Equal(t, "b", last.Agent)
}

// withTestModel registers, for one test, a second learning model whose
// reward differs from the reference's: it proves that each event replays
// with the model that applied it. forget takes it out again before the
// test ends.
func withTestModel(t *testing.T) (name string, forget func()) {
	t.Helper()
	name = "test-half-reward"
	forget = advice.RegisterModel(&advice.Model{Name: name, Doc: "test only",
		Reward: func(success string, u float64) float64 { return outcome.ReferenceReward(success, u) / 2 }})
	t.Cleanup(forget)
	return name, forget
}

func TestVerifyReplaysEachEventWithItsModel(t *testing.T) {
	name, forget := withTestModel(t)
	run := func(model string) *Bridge {
		b := New(Options{Workspace: filepath.Join(t.TempDir(), "ws"), Now: testNow})
		_, err := b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("model", model))})
		require.NoError(t, err)
		for _, a := range []string{"read", "web_fetch", "read", "web_fetch", "read", "exec"} {
			_, err := report(t, b, a)
			require.NoError(t, err)
		}
		return b
	}
	ref, test := run(advice.ModelV2), run(name)
	refMeta, _ := ref.ws.StateMeta()
	testMeta, _ := test.ws.StateMeta()
	assert.Equal(t, name, testMeta.Model)
	refState, _ := os.ReadFile(ref.ws.Path(workspace.RelState))
	testState, _ := os.ReadFile(test.ws.Path(workspace.RelState))
	require.NotEqual(t, sha256hex(refState), sha256hex(testState), "the models must learn differently")
	assert.Equal(t, refMeta.Seq, testMeta.Seq)

	// Replayed with the default model, the test model's events would not
	// reproduce their states; verify passes because it uses each event's.
	_, err := test.Verify(VerifyOptions{})
	require.NoError(t, err)
	last, _, _ := test.ws.LastEvent()
	assert.Equal(t, name, last.Model)

	// A ucs that does not know the model stops with unsupported_version,
	// naming it: never a report of tampering.
	forget()
	_, err = test.Verify(VerifyOptions{})
	var e *fault.Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, "unsupported_version", e.Code)
	assert.Equal(t, 6, fault.Exit(err))
	assert.Contains(t, e.Msg, name)
	// Nor does it open the workspace.
	_, err = test.Do(Call{Op: "status"})
	assert.True(t, errors.Is(err, fault.ErrUnsupported), "%v", err)
}

func TestInitUnknownModel(t *testing.T) {
	b := New(Options{Workspace: filepath.Join(t.TempDir(), "ws"), Now: testNow})
	_, err := b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("model", "v9"))})
	var e *fault.Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, "invalid_value", e.Code)
	assert.Contains(t, e.Hint, advice.ModelV2)
	assert.NoDirExists(t, b.opts.Workspace+"/ucs/state/journal.jsonl")
}

// A workspace of a newer format is refused unchanged, with exit 6.
func TestNewerFormatRefused(t *testing.T) {
	b := newWorkspace(t)
	path := b.ws.Path(workspace.RelState)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	newer := strings.Replace(string(data), `"format":"ucs.workspace.v2"`, `"format":"ucs.workspace.v9"`, 1)
	require.NotEqual(t, string(data), newer)
	require.NoError(t, os.WriteFile(path, []byte(newer), 0o600))
	before := workspacetest.Fingerprint(t, b.opts.Workspace)
	for _, call := range []Call{{Op: "status"}, {Op: "report", Input: input(t, `{"action": "read"}`)}} {
		op := call.Op
		_, err = b.Do(call)
		require.Error(t, err)
		assert.Equal(t, 6, fault.Exit(err), op)
		assert.Equal(t, "unsupported_version", fault.AsError(err).Code)
	}
	assert.Equal(t, before, workspacetest.Fingerprint(t, b.opts.Workspace))
}

// A v2 workspace moves to v3 only when asked: its reports are learned
// again into v3's statistics, with a backup, as one journaled event that
// verify replays (from the start and from a snapshot).
func TestMigrateModelV2toV3(t *testing.T) {
	ws := copyWorkspace(t, fixtureV010)
	b := New(Options{Workspace: ws, Now: testNow, SnapshotEvery: 25})
	_, err := b.Do(Call{Op: "migrate", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV3))})
	require.Error(t, err, "the format first")
	out, err := b.Do(Call{Op: "migrate"})
	require.NoError(t, err)
	assert.Equal(t, "migrated", out.StrOf("status"))
	m, _ := b.ws.StateMeta()
	require.Equal(t, WorkspaceFormat, m.Format)
	require.Equal(t, advice.ModelV2, m.Model, "a format migration never changes the model")

	out, err = b.Do(Call{Op: "migrate", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV3))})
	require.NoError(t, err)
	n, _ := out.GetOr("reports_learned", pyjson.NullValue()).Int()
	assert.Greater(t, n, int64(30))
	assert.DirExists(t, filepath.Join(ws, "ucs/state/backup/migrate-model-v2-v3"))
	m, _ = b.ws.StateMeta()
	require.Equal(t, advice.ModelV3, m.Model)

	// Migrating to the model the workspace uses has nothing to do: an
	// answer that says so, not an error, and no event.
	before, _ := b.ws.StateMeta()
	again, err := b.Do(Call{Op: "migrate", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV3))})
	require.NoError(t, err, "nothing to do")
	assert.Equal(t, "already_current", again.StrOf("status"))
	after, _ := b.ws.StateMeta()
	assert.Equal(t, before.Seq, after.Seq, "no event")

	c, err := b.Do(Call{Op: "consult", Args: pyjson.Obj(pyjson.KV("context", "write the pricing report"))})
	require.NoError(t, err)
	assert.NotEmpty(t, c.StrOf("advisory_id"))
	// The history's outcomes are evidence now: the first report of the
	// action log has an estimate with outcomes behind it.
	s, done := b.sessionForTest(t)
	v, err := s.learned()
	require.NoError(t, err)
	lines, err := s.list(workspace.RelActionLog)
	require.NoError(t, err)
	first := lines[0]
	est := v.Model.Estimate(learn.Context{}, first.StrOf("cursor_before"), first.StrOf("action"), 0)
	assert.Greater(t, est.Evidence.N, 0.0)
	done()
	for range 30 { // past a snapshot
		_, err := report(t, b, "read")
		require.NoError(t, err)
	}
	_, err = b.Check(false)
	require.NoError(t, err)
	_, err = b.Verify(VerifyOptions{})
	require.NoError(t, err)
	_, err = b.Verify(VerifyOptions{From: m.Seq})
	require.NoError(t, err, "replayed from the snapshot before the migration")
}

const fixtureV3 = "../testdata/workspaces/ucs-v3-6cce7ed"

// A v3 workspace written before v4 existed keeps v3: its journal replays
// under v3's frozen settings, it goes on learning as v3 (no trail in its
// state), and moves to v4 only when asked, after which it verifies too.
func TestV3WorkspaceKeepsV3(t *testing.T) {
	ws := copyWorkspace(t, fixtureV3)
	b := New(Options{Workspace: ws, Now: testNow, SnapshotEvery: 25})
	before, err := b.ws.StateMeta()
	require.NoError(t, err)
	require.Equal(t, advice.ModelV3, before.Model)
	_, err = b.Check(false)
	require.NoError(t, err)
	_, err = b.Verify(VerifyOptions{})
	require.NoError(t, err, "a v3 journal replays as v3")

	const task = "research competitor pricing on the web"
	_, err = b.Do(Call{Op: "consult", Args: pyjson.Obj(pyjson.KV("context", task))})
	require.NoError(t, err)
	_, err = b.Do(Call{Op: "report", Input: input(t, `{"action": "web_fetch", "success": "success", "context": "`+task+`"}`)})
	require.NoError(t, err)
	state, err := os.ReadFile(filepath.Join(ws, "ucs/state/torusfield_state.json"))
	require.NoError(t, err)
	assert.False(t, gjson.GetBytes(state, "learn.trail").Exists(), "a v3 state has no trail")
	m, _ := b.ws.StateMeta()
	assert.Equal(t, advice.ModelV3, m.Model)

	out, err := b.Do(Call{Op: "migrate", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV4))})
	require.NoError(t, err)
	assert.Equal(t, advice.ModelV3, out.StrOf("model_from"))
	n, _ := out.GetOr("reports_learned", pyjson.NullValue()).Int()
	assert.Equal(t, int64(19), n, "the fixture's 18 success and failure reports and this one")
	assert.DirExists(t, filepath.Join(ws, "ucs/state/backup/migrate-model-v3-v4"))
	state, err = os.ReadFile(filepath.Join(ws, "ucs/state/torusfield_state.json"))
	require.NoError(t, err)
	assert.Equal(t, `["read","web_fetch",["competitor","pric","research","web"]]`, gjson.GetBytes(state, "learn.trail").Raw)
	_, err = b.Check(false)
	require.NoError(t, err)
	_, err = b.Verify(VerifyOptions{})
	require.NoError(t, err)
}

// A workspace moving to v4 keeps what it knows as observations: its
// methodology and dead ends become observations with their entries as
// evidence (dated by the entries), and verify replays the migration.
func TestMigrateToV4ObservesEntries(t *testing.T) {
	ws := copyWorkspace(t, fixtureV010)
	b := New(Options{Workspace: ws, Now: testNow})
	_, err := b.Do(Call{Op: "migrate"})
	require.NoError(t, err)
	out, err := b.Do(Call{Op: "migrate", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV4))})
	require.NoError(t, err)
	n, _ := out.GetOr("entries_observed", pyjson.NullValue()).Int()
	obs, _ := out.GetOr("observations", pyjson.NullValue()).Int()
	assert.Positive(t, n)
	assert.Positive(t, obs)
	assert.LessOrEqual(t, obs, n, "near-duplicates become evidence")
	list, err := b.Do(Call{Op: "observations", Args: pyjson.Obj(pyjson.KV("status", "all"))})
	require.NoError(t, err)
	count, _ := list.GetOr("count", pyjson.NullValue()).Int()
	assert.Equal(t, obs, count)
	_, err = b.Check(false)
	require.NoError(t, err)
	_, err = b.Verify(VerifyOptions{})
	require.NoError(t, err)
}

// Regression: with the real clock (nanoseconds), what a call keeps of the
// time must be what the journal records (microseconds), or verify cannot
// replay it: observations kept the nanoseconds (make demo failed verify at
// its first reflection).
func TestRealClockReplays(t *testing.T) {
	b := New(Options{Workspace: filepath.Join(t.TempDir(), "ws")})
	_, err := b.Do(Call{Op: "init"})
	require.NoError(t, err)
	for range 3 {
		_, err = b.Do(Call{Op: "reflect", Input: input(t, `{"type": "post_task", "text": "Fetch whole pages: snippets truncate tables.", "capabilities": ["web_fetch"]}`)})
		require.NoError(t, err)
		_, err = b.Do(Call{Op: "goal add", Args: pyjson.Obj(pyjson.KV("content", "ship it"))})
		require.NoError(t, err)
	}
	_, err = b.Verify(VerifyOptions{})
	require.NoError(t, err)
}

// A person's rating of an action is evidence on the observations about
// that action's capability (v4), recorded with who rated.
func TestRatingIsEvidence(t *testing.T) {
	b := New(Options{Workspace: filepath.Join(t.TempDir(), "ws"), Now: testNow})
	_, err := b.Do(Call{Op: "init"})
	require.NoError(t, err)
	_, err = b.Do(Call{Op: "reflect", Input: input(t, `{"type": "post_task", "text": "Fetch whole pages: snippets truncate price tables.", "capabilities": ["web_fetch"]}`)})
	require.NoError(t, err)
	_, err = b.Do(Call{Op: "report", Input: input(t, `{"action": "web_fetch", "success": "success"}`)})
	require.NoError(t, err)
	m, _ := b.ws.StateMeta()
	out, err := b.Do(Call{Op: "rate", Args: pyjson.Obj(pyjson.KV("seq", m.Seq), pyjson.KV("success", "failure"), pyjson.KV("by", "operator"))})
	require.NoError(t, err)
	obs, ok := out.Get("observations")
	require.True(t, ok, "the rating reaches the observation about web_fetch")
	first := obs.Items()[0]
	assert.Equal(t, "contradict", first.StrOf("stance"))
	// An operator's verdict (half an outcome, times 3: 1.5) outweighs the
	// one reflection behind the claim: invalidated.
	assert.Equal(t, "invalidated", first.StrOf("status"))
	list, err := b.Do(Call{Op: "observations", Args: pyjson.Obj(pyjson.KV("status", "all"))})
	require.NoError(t, err)
	o := list.GetOr("observations", pyjson.NullValue()).Items()[0]
	ev, _ := o.Get("evidence")
	n, _ := ev.GetOr("contradict", pyjson.NullValue()).Int()
	assert.Equal(t, int64(1), n)
	_, err = b.Verify(VerifyOptions{})
	require.NoError(t, err)
}

// The book of observations is its own file, named by hash in the state: a
// call cut short after writing a new book (and keeping the old as .prev)
// leaves the state naming the .prev, which is read; check reports a book
// that is gone; verify proves the book through the state's hash.
func TestBookFile(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	b := New(Options{Workspace: ws, Now: testNow})
	_, err := b.Do(Call{Op: "init"})
	require.NoError(t, err)
	reflect := func(text string) {
		_, err := b.Do(Call{Op: "reflect", Input: input(t, `{"type": "post_task", "text": "`+text+`", "capabilities": ["web_fetch"], "keywords": ["`+text[:5]+`"]}`)})
		require.NoError(t, err)
	}
	reflect("Fetch whole pages: snippets truncate tables.")
	book := filepath.Join(ws, workspace.RelObservations)
	committed, err := os.ReadFile(book)
	require.NoError(t, err)
	state, err := os.ReadFile(filepath.Join(ws, "ucs/state/torusfield_state.json"))
	require.NoError(t, err)
	assert.NotContains(t, string(state), "Fetch whole pages", "the state names the book, it does not hold it")

	// Cut short: the new book written, the old kept as .prev, no commit.
	require.NoError(t, os.Rename(book, book+".prev"))
	require.NoError(t, os.WriteFile(book, []byte(`{"torn": `), 0o600))
	out, err := b.Do(Call{Op: "observations"})
	require.NoError(t, err, "the state still names the .prev")
	n, _ := out.GetOr("count", pyjson.NullValue()).Int()
	assert.Equal(t, int64(1), n)
	reflect("Search first, then fetch the best two pages.")
	_, err = b.Check(false)
	require.NoError(t, err)
	_, err = b.Verify(VerifyOptions{})
	require.NoError(t, err)
	prev, err := os.ReadFile(book + ".prev")
	require.NoError(t, err)
	assert.Equal(t, committed, prev, "the last committed book is the .prev now")

	// A book that is gone is a problem check names.
	require.NoError(t, os.Remove(book))
	require.NoError(t, os.Remove(book+".prev"))
	_, err = b.Check(false)
	require.Error(t, err)
	assert.Contains(t, string(pyjson.Canonical(pyjson.ObjectValue(fault.AsError(err).Details))), "observations")
}

// consult ranks observations from files derived from the book (an index
// and the summaries) when they match it, and from the book otherwise: the
// same answer either way.
func TestObservationContextFiles(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	b := New(Options{Workspace: ws, Now: testNow})
	_, err := b.Do(Call{Op: "init"})
	require.NoError(t, err)
	for _, text := range []string{"Fetch whole pages: snippets truncate price tables.", "Search first, then fetch the best two pages.",
		"Run the parser tests before committing a grammar change.", "Deploy on Tuesdays; the billing team is on call."} {
		_, err := b.Do(Call{Op: "reflect", Input: input(t, `{"type": "post_task", "text": "`+text+`", "keywords": ["`+text[:6]+`"]}`)})
		require.NoError(t, err)
	}
	ask := func() string {
		out, err := b.Do(Call{Op: "consult", Args: pyjson.Obj(pyjson.KV("context", "fetch the price pages"), pyjson.KV("fields", []string{"observations"}))})
		require.NoError(t, err)
		obs, _ := out.Get("observations")
		return string(pyjson.Canonical(obs))
	}
	fromFiles := ask()
	assert.Contains(t, fromFiles, "price tables")
	assert.FileExists(t, filepath.Join(ws, workspace.RelObservations+belief.IndexExt))
	require.NoError(t, os.Remove(filepath.Join(ws, workspace.RelObservations+belief.IndexExt)))
	assert.Equal(t, fromFiles, ask(), "rebuilt from the book")
	assert.FileExists(t, filepath.Join(ws, workspace.RelObservations+belief.IndexExt), "and written again")
	assert.Equal(t, fromFiles, ask())
	_, err = b.Verify(VerifyOptions{})
	require.NoError(t, err)
}
