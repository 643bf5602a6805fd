package bridge

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/initmanifest"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace/workspacetest"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var testNow = time.Date(2026, 11, 21, 21, 1, 0, 0, time.UTC)

// newWorkspace initializes a workspace on the embedded manifest, with the
// reference's learning model (v2): the storage tests count on its 200-step
// warm-up.
func newWorkspace(t testing.TB) *Bridge {
	t.Helper()
	b := New(Options{Workspace: filepath.Join(t.TempDir(), "ws"), Now: testNow})
	_, err := b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV2))})
	require.NoError(t, err)
	return b
}

func input(t testing.TB, s string) pyjson.Value {
	t.Helper()
	v, err := field.ParseInput([]byte(s))
	require.NoError(t, err)
	return v
}

func report(t testing.TB, b *Bridge, action string, extra ...string) (pyjson.Value, error) {
	t.Helper()
	body := fmt.Sprintf(`{"action": %q, "outcome": "done", "success": "success"%s}`, action, strings.Join(extra, ""))
	return b.Do(Call{Op: "report", Input: input(t, body)})
}

// invariants checks what must hold after any call, whole or cut short:
// check finds nothing, and the engine's t, the journal, the action log and
// the report counter agree on how many reports landed.
func invariants(t testing.TB, b *Bridge, wantReports int) {
	t.Helper()
	out, err := b.Check(false)
	require.NoError(t, err, "check: %s", pyjson.Indent(out))
	st, err := b.Do(Call{Op: "status"})
	require.NoError(t, err)
	tv, _ := st.Get("t")
	n, _ := tv.Int()
	lines := entries(t, b, workspace.RelActionLog)
	assert.Equal(t, wantReports, len(lines), "action log lines")
	assert.Equal(t, int64(initmanifest.ReferenceWarmup+wantReports), n, "engine t")
	rc, _ := st.Get("report_counter")
	c, _ := rc.Int()
	assert.Equal(t, int64(wantReports%torusfield.PhiReportInterval), c, "report counter")
}

// entries reads a data file's committed entries, as a read does.
func entries(t testing.TB, b *Bridge, rel string) []pyjson.Value {
	t.Helper()
	tx, err := b.ws.Begin(false)
	require.NoError(t, err)
	defer tx.Close()
	v, err := tx.List(rel)
	require.NoError(t, err)
	return v
}

// TestCrashAtEveryStage interrupts a report (with a judgment node, so it
// appends to several files), a reflection and a consult (which appends
// nothing and syncs its journal event with the new state) at every step of
// the commit. The next call must find the workspace exactly as before the
// call, or exactly as after it.
func TestCrashAtEveryStage(t *testing.T) {
	reportStages := []string{"journal", "append ucs/state/action_log.jsonl", "append ucs/state/judgment_nodes.jsonl",
		"append ucs/state/index-v1/judgment_nodes.jsonl", "prev", "committed"}
	reflectStages := []string{"append ucs/knowledge/methodology.md", "append ucs/state/methodology.jsonl",
		"append ucs/state/index-v1/methodology.jsonl", "append ucs/state/index-v1/methodology-cap-0.txt"}
	calls := map[string]func(t *testing.T, b *Bridge){
		"report": func(t *testing.T, b *Bridge) { report(t, b, "web_fetch", `, "significance": "notable"`) },
		"reflect": func(t *testing.T, b *Bridge) {
			b.Do(Call{Op: "reflect", Input: input(t, `{"type": "post_task", "text": "x", "capabilities": ["read"]}`)})
		},
		"consult": func(t *testing.T, b *Bridge) {
			b.Do(Call{Op: "consult", Args: pyjson.Obj(pyjson.KV("context", "debug the flaky pipeline"))})
		},
	}
	type cut struct{ op, stage string }
	var cuts []cut
	for _, st := range reportStages {
		cuts = append(cuts, cut{"report", st})
	}
	for _, st := range reflectStages {
		cuts = append(cuts, cut{"reflect", st})
	}
	for _, st := range []string{"journal", "prev", "committed"} {
		cuts = append(cuts, cut{"consult", st})
	}
	for _, c := range cuts {
		t.Run(c.op+" at "+c.stage, func(t *testing.T) {
			b := newWorkspace(t)
			_, err := report(t, b, "read")
			require.NoError(t, err)
			before := workspacetest.Fingerprint(t, b.ws.Root())
			crashed := workspace.CrashAt(c.stage, func() { calls[c.op](t, b) })
			require.True(t, crashed, "the stage was reached")
			// check, before any call rolls it back, finds no damage (the
			// engine's part included) and changes nothing.
			cutShort := workspacetest.Fingerprint(t, b.ws.Root())
			checked, err := b.Check(false)
			require.NoError(t, err, "a call cut short is no damage")
			if c.stage != "committed" {
				warnings, _ := checked.Get("warnings")
				assert.Contains(t, string(pyjson.Canonical(warnings)), "a call was cut short")
			}
			assert.Equal(t, cutShort, workspacetest.Fingerprint(t, b.ws.Root()), "check changed nothing")
			// The next call recovers first.
			out, err := b.Do(Call{Op: "status"})
			require.NoError(t, err)
			committed := c.stage == "committed"
			if committed {
				assert.NotEqual(t, before, workspacetest.Fingerprint(t, b.ws.Root()), "the call landed")
			} else {
				assert.Equal(t, before, workspacetest.Fingerprint(t, b.ws.Root()), "rolled back to exactly the state before the call")
				warnings, _ := out.Get("warnings")
				assert.Contains(t, string(pyjson.Canonical(warnings)), "rolled back event")
			}
			want := 1
			if committed && c.op == "report" {
				want = 2
			}
			invariants(t, b, want)
		})
	}
}

// TestRecoveryRemovesUnfinishedStateFiles: a call killed with SIGKILL (no
// deferred cleanup runs) after writing the new state's temporary file
// leaves it beside the state file; the recovery that rolls the call back
// removes it, and only what renameio could have named so.
func TestRecoveryRemovesUnfinishedStateFiles(t *testing.T) {
	b := newWorkspace(t)
	_, err := report(t, b, "read")
	require.NoError(t, err)
	before := workspacetest.Fingerprint(t, b.ws.Root())
	crashed := workspace.CrashAt("journal", func() { report(t, b, "web_fetch") })
	require.True(t, crashed)
	dir := filepath.Dir(b.ws.Path(workspace.RelState))
	stray := filepath.Join(dir, ".torusfield_state.json4691051894278764552")
	require.NoError(t, os.WriteFile(stray, []byte(`{"ucs":`), 0o600))
	other := filepath.Join(dir, ".torusfield_state.json.keep")
	require.NoError(t, os.WriteFile(other, nil, 0o600))

	out, err := b.Do(Call{Op: "status"})
	require.NoError(t, err)
	assert.NoFileExists(t, stray)
	assert.FileExists(t, other, "a name renameio does not make is not ours to remove")
	warnings, _ := out.Get("warnings")
	assert.Contains(t, string(pyjson.Canonical(warnings)), "removed 1 unfinished state file(s)")
	require.NoError(t, os.Remove(other))
	assert.Equal(t, before, workspacetest.Fingerprint(t, b.ws.Root()))
	invariants(t, b, 1)
}

// stateTemps lists the temporary state files in a workspace's state directory.
func stateTemps(t testing.TB, ws string) []string {
	t.Helper()
	dir, err := os.ReadDir(filepath.Join(ws, workspace.RelStateDir))
	require.NoError(t, err)
	var out []string
	for _, e := range dir {
		if strings.HasPrefix(e.Name(), ".torusfield_state.json") {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestRequestIDCountedOnce: the same report sent twice with one request_id
// is applied once; so is a retry after the first call was killed right
// after its commit, before the agent saw the answer.
func TestRequestIDCountedOnce(t *testing.T) {
	b := newWorkspace(t)
	first, err := report(t, b, "read", `, "request_id": "r-1"`)
	require.NoError(t, err)
	again, err := report(t, b, "read", `, "request_id": "r-1"`)
	require.NoError(t, err)
	replayed, _ := again.Get("replayed")
	assert.True(t, replayed.Bool())
	assert.Equal(t, string(pyjson.Canonical(first.With("replayed", true))), string(pyjson.Canonical(again)))
	invariants(t, b, 1)
	_, err = report(t, b, "web_fetch", `, "request_id": "r-1"`)
	assert.Equal(t, "request_id_conflict", fault.AsError(err).Code, "the same id for another call is refused")
	invariants(t, b, 1)

	crashed := workspace.CrashAt("committed", func() { report(t, b, "web_fetch", `, "request_id": "r-2"`) })
	require.True(t, crashed)
	out, err := report(t, b, "web_fetch", `, "request_id": "r-2"`)
	require.NoError(t, err)
	replayed, _ = out.Get("replayed")
	assert.True(t, replayed.Bool(), "the retry finds the committed call")
	invariants(t, b, 2)

	// A call killed before its commit is not remembered: the retry applies it.
	crashed = workspace.CrashAt("journal", func() { report(t, b, "read", `, "request_id": "r-3"`) })
	require.True(t, crashed)
	out, err = report(t, b, "read", `, "request_id": "r-3"`)
	require.NoError(t, err)
	_, isReplay := out.Get("replayed")
	assert.False(t, isReplay)
	invariants(t, b, 3)
}

// TestRejectedInputChangesNothing: a bad report leaves every byte of the
// workspace as it was.
func TestRejectedInputChangesNothing(t *testing.T) {
	b := newWorkspace(t)
	before := workspacetest.Fingerprint(t, b.ws.Root())
	for _, in := range []string{
		`{"action": "read", "success": "great"}`,
		`{"outcome": "no action"}`,
		`{"action": 7}`,
		`{"action": "read", "reasoning_trace": "not an object"}`,
		`{"action": "read", "request_id": ""}`,
		`{"action": "re\u0007ad"}`,
	} {
		_, err := b.Do(Call{Op: "report", Input: input(t, in)})
		require.Error(t, err, in)
		assert.Equal(t, int(fault.KindBadInput), fault.Exit(err), in)
	}
	assert.Equal(t, before, workspacetest.Fingerprint(t, b.ws.Root()))
}

// TestCorruptStateRefused: a state file that does not parse is never
// overwritten; every command answers exit 5, and check --repair restores
// the previous commit.
func TestCorruptStateRefused(t *testing.T) {
	b := newWorkspace(t)
	for _, a := range []string{"read", "web_fetch"} {
		_, err := report(t, b, a)
		require.NoError(t, err)
	}
	path := b.ws.Path(workspace.RelState)
	require.NoError(t, os.WriteFile(path, []byte(`{"oops`), 0o644))
	for _, op := range []string{"status", "consult", "flush", "resume", "export"} {
		args := pyjson.Obj()
		if op == "consult" {
			args = pyjson.Obj(pyjson.KV("context", "x"))
		}
		_, err := b.Do(Call{Op: op, Args: args})
		assert.Equal(t, int(fault.KindCorrupt), fault.Exit(err), op)
	}
	data, _ := os.ReadFile(path)
	assert.Equal(t, `{"oops`, string(data), "never overwritten")
	_, err := b.Check(false)
	assert.Equal(t, int(fault.KindCorrupt), fault.Exit(err))
	out, err := b.Check(true)
	require.NoError(t, err, "%s", pyjson.Indent(out))
	// The last report's state was lost; its event is rolled back and kept in a backup.
	invariants(t, b, 1)
}

func argsOf(kv ...string) pyjson.Value {
	var ms []pyjson.Member
	for i := 0; i+1 < len(kv); i += 2 {
		ms = append(ms, pyjson.KV(kv[i], kv[i+1]))
	}
	return pyjson.ObjectValue(ms)
}

// TestInitOverUncommittedLeftovers: an init syncs its journal event
// together with its files, so a power loss can leave some of its files
// without the event. Nothing in the state directory is committed before a
// state file exists, so the next init overwrites them from the start.
func TestInitOverUncommittedLeftovers(t *testing.T) {
	clean := newWorkspace(t)
	dir := filepath.Join(t.TempDir(), "ws")
	b := New(Options{Workspace: dir, Now: testNow})
	state := filepath.Join(dir, "ucs", "state")
	require.NoError(t, os.MkdirAll(state, 0o755))
	for _, name := range []string{"manifest.json", "pp_history.jsonl"} {
		require.NoError(t, os.WriteFile(filepath.Join(state, name), []byte(`{"half": "writ`), 0o644))
	}
	_, err := b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV2))})
	require.NoError(t, err)
	assert.Equal(t, workspacetest.Fingerprint(t, clean.opts.Workspace), workspacetest.Fingerprint(t, dir))
	_, err = b.Check(false)
	require.NoError(t, err)
}
