package bridge

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// trainV5 reports tasks of one rule in a v5 workspace, each under its own
// task id with the same context.
func trainV5(t *testing.T, b *Bridge, prefix, context string, tasks int, rule ...string) {
	t.Helper()
	for i := range tasks {
		task := prefix + "-" + itoa(i)
		for _, action := range rule {
			in := pyjson.Obj(pyjson.KV("action", action), pyjson.KV("success", "success"),
				pyjson.KV("task", task), pyjson.KV("context", context))
			_, err := b.Do(Call{Op: "report", Input: in})
			require.NoError(t, err)
		}
	}
}

func exportOf(t *testing.T, b *Bridge) pyjson.Value {
	t.Helper()
	pkg, err := b.Do(Call{Op: "export"})
	require.NoError(t, err)
	return pkg
}

func importInto(t *testing.T, b *Bridge, pkg pyjson.Value) (out, model pyjson.Value) {
	t.Helper()
	out, err := b.Do(Call{Op: "import", Input: pkg})
	require.NoError(t, err)
	model, ok := out.Get("model")
	require.True(t, ok, "the answer says what became of the model: %s", pyjson.AppendCompact(nil, out))
	return out, model
}

// advice is what of a consult answer the learned model decides: the
// cursor and the suggestions, canonical.
func topAdvice(t *testing.T, b *Bridge, task, context string) string {
	t.Helper()
	c := consultV5(t, b, task, context, false)
	cur, _ := c.Get("cursor")
	paths, _ := c.Get("suggested_paths")
	return string(pyjson.Canonical(pyjson.Obj(pyjson.KV("cursor", cur), pyjson.KV("suggested_paths", paths))))
}

const (
	incidentContext = "incident: checkout returns 500 errors"
	bugfixContext   = "fix the failing parser test"
)

var (
	incidentRule = []string{"read_logs", "git_log", "read_file", "edit_file", "run_build", "deploy"}
	bugfixRule   = []string{"grep", "read_file", "edit_file", "run_tests", "git_commit"}
)

// An export imported into a fresh workspace of the same manifest advises
// as the exporting workspace does, in every context and task: before,
// import blended the routing graph's edges and said so, and the new
// workspace advised untrained.
func TestImportModelRestoresAdvice(t *testing.T) {
	a := newV5Workspace(t)
	trainV5(t, a, "incident", incidentContext, 3, incidentRule...)
	trainV5(t, a, "bugfix", bugfixContext, 3, bugfixRule...)
	// A task in progress: its trail travels too.
	reportV5(t, a, "bugfix-open", "grep", "success")
	pkg := exportOf(t, a)

	b := newV5Workspace(t)
	_, model := importInto(t, b, pkg)
	assert.Equal(t, "restored", model.StrOf("action"))
	for _, q := range []struct{ task, context string }{
		{"incident-next", incidentContext}, {"bugfix-next", bugfixContext}, {"bugfix-open", bugfixContext},
		{"", "research the new tls requirements"}, {"incident-next", incidentContext},
	} {
		assert.Equal(t, topAdvice(t, a, q.task, q.context), topAdvice(t, b, q.task, q.context), "task %q", q.task)
	}
	verifyClean(t, a)
	verifyClean(t, b)
}

// Importing the same package twice changes nothing the second time: the
// model member's digest is remembered, so its counts are not pooled with
// themselves.
func TestImportModelTwice(t *testing.T) {
	a := newV5Workspace(t)
	trainV5(t, a, "incident", incidentContext, 2, incidentRule...)
	pkg := exportOf(t, a)
	b := newV5Workspace(t)
	_, model := importInto(t, b, pkg)
	require.Equal(t, "restored", model.StrOf("action"))
	before := pyjson.Canonical(exportOf(t, b))
	out, model := importInto(t, b, pkg)
	assert.Equal(t, "already_imported", model.StrOf("action"))
	assert.Equal(t, true, out.GetOr("already_imported", pyjson.NullValue()).Bool())
	assert.Equal(t, string(before), string(pyjson.Canonical(exportOf(t, b))))
	verifyClean(t, b)
}

// nextStep is the count a consult's top suggestion gives for a step at the
// task's start: "times of" at its level.
func nextStep(t *testing.T, b *Bridge, task, context, to string) (times, of int64) {
	t.Helper()
	c := consultV5(t, b, task, context, true)
	paths, _ := c.Get("suggested_paths")
	for _, p := range paths.Items() {
		if p.StrOf("to") != to {
			continue
		}
		ev, _ := p.Get("evidence")
		ns, _ := ev.Get("next_step")
		times, _ = ns.GetOr("times", pyjson.NullValue()).Int()
		of, _ = ns.GetOr("of", pyjson.NullValue()).Int()
		return times, of
	}
	t.Fatalf("%s is not among the suggestions", to)
	return 0, 0
}

// Into a workspace that has learned, the model is pooled: the counts of
// both agents summed, so a new task's first step is counted from both.
func TestImportModelPools(t *testing.T) {
	a := newV5Workspace(t)
	trainV5(t, a, "incident", incidentContext, 3, incidentRule...)
	b := newV5Workspace(t)
	trainV5(t, b, "bugfix", bugfixContext, 2, bugfixRule...)
	times, of := nextStep(t, b, "x-before", "zzz qqq", "grep")
	require.Equal(t, [2]int64{2, 2}, [2]int64{times, of})

	_, model := importInto(t, b, exportOf(t, a))
	assert.Equal(t, "pooled", model.StrOf("action"))
	times, of = nextStep(t, b, "x-after", "zzz qqq", "read_logs")
	assert.Equal(t, [2]int64{3, 5}, [2]int64{times, of}, "a's three starts beside b's two")
	times, of = nextStep(t, b, "x-after2", "zzz qqq", "grep")
	assert.Equal(t, [2]int64{2, 5}, [2]int64{times, of})
	verifyClean(t, b)
}

// newV5WorkspaceWithout makes a v5 workspace of the coding manifest less
// some capabilities (and the edges to them).
func newV5WorkspaceWithout(t *testing.T, drop ...string) *Bridge {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "manifests", "coding.json"))
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	var caps []any
	for _, c := range m["capabilities"].([]any) {
		c := c.(map[string]any)
		if slices.Contains(drop, c["name"].(string)) {
			continue
		}
		var to []any
		for _, x := range c["connects_to"].([]any) {
			if !slices.Contains(drop, x.(string)) {
				to = append(to, x)
			}
		}
		c["connects_to"] = to
		caps = append(caps, c)
	}
	m["capabilities"] = caps
	sem := m["semantic_map"].(map[string]any)
	for label, xs := range sem {
		var kept []any
		for _, x := range xs.([]any) {
			if !slices.Contains(drop, x.(string)) {
				kept = append(kept, x)
			}
		}
		sem[label] = kept
	}
	raw, err = json.Marshal(m)
	require.NoError(t, err)
	return newV5WorkspaceOf(t, raw)
}

// Into a workspace of another manifest, what names capabilities it has is
// imported and the capabilities it lacks are listed.
func TestImportModelOtherManifest(t *testing.T) {
	a := newV5Workspace(t)
	trainV5(t, a, "incident", incidentContext, 2, incidentRule...)
	b := newV5WorkspaceWithout(t, "deploy", "run_build")
	out, model := importInto(t, b, exportOf(t, a))
	assert.Equal(t, "mapped", model.StrOf("action"))
	unknown, _ := model.Get("capabilities_unknown_here")
	assert.Equal(t, `["deploy","run_build"]`, string(pyjson.AppendCompact(nil, unknown)))
	left, _ := model.GetOr("records_left_out", pyjson.NullValue()).Int()
	assert.Positive(t, left)
	assert.Contains(t, string(pyjson.AppendCompact(nil, out)), "run_build")
	times, of := nextStep(t, b, "x", "zzz qqq", "read_logs")
	assert.Equal(t, [2]int64{2, 2}, [2]int64{times, of})
	verifyClean(t, b)
}

// Into a workspace of another model, the model is not imported, and the
// answer says why and how to move.
func TestImportModelOtherVersion(t *testing.T) {
	a := newV5Workspace(t)
	trainV5(t, a, "incident", incidentContext, 1, incidentRule...)
	b := New(Options{Workspace: filepath.Join(t.TempDir(), "ws"), Now: testNow})
	_, err := b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV4))})
	require.NoError(t, err)
	_, model := importInto(t, b, exportOf(t, a))
	assert.Equal(t, "not_imported", model.StrOf("action"))
	assert.Contains(t, model.StrOf("hint"), "migrate --model v5")
	verifyClean(t, b)
}

// The reference's model exports no model member: its package stays the
// reference's.
func TestExportV2HasNoModel(t *testing.T) {
	b := New(Options{Workspace: filepath.Join(t.TempDir(), "ws"), Now: testNow})
	_, err := b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV2))})
	require.NoError(t, err)
	_, ok := exportOf(t, b).Get("model")
	assert.False(t, ok)
}

// A model member of the reference's model, which exports none, imported
// into a workspace of that model is not imported, and the answer says
// why; it used to take it for a v5 member and panic on the workspace's
// missing next-step state.
func TestImportModelV2Member(t *testing.T) {
	b := New(Options{Workspace: filepath.Join(t.TempDir(), "ws"), Now: testNow})
	_, err := b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("model", advice.ModelV2))})
	require.NoError(t, err)
	pkg := pyjson.Obj(pyjson.KV("format", "ucs_cognitive_export_v2"), pyjson.KV("model", pyjson.Obj(
		pyjson.KV("version", advice.ModelV2), pyjson.KV("manifest", "x"), pyjson.KV("capabilities", pyjson.From([]string{})))))
	_, model := importInto(t, b, pkg)
	assert.Equal(t, "not_imported", model.StrOf("action"))
	assert.Contains(t, model.StrOf("reason"), "keeps no learned model")
	verifyClean(t, b)
}

// A malformed model member is refused with invalid_value, and the
// workspace is unchanged (fuzzOp's property).
func FuzzImportModel(f *testing.F) {
	const state = `"state":{"episodes":[{"at":"","failed":{},"prev":"","prev2":"","task":"","terms":[]}],"followed":[0,0],"globals":[0.5,1,1],"located":"","not_followed":[0,0]}`
	const head = `{"format":"ucs_cognitive_export_v2","model":{"version":"v5","manifest":"x","capabilities":["read"],`
	fuzzOp(f, "import",
		head+state+`,"records":{"c\u001f0":{"m":1,"n":1,"t":1,"to":{"read":[1,0,1,0,1]},"u":1},"s\u001f1\u001f":{"read":[0.1,0.09,1,1]}}}}`,
		head+state+`,"records":{"s\u001f1\u001f":{"read":[0.1,0.09,1,1]},"c\u001f0":{"m":1,"n":1,"t":1,"to":{},"u":1}}}}`,
		head+state+`,"records":{"c\u001f0":{"m":-1,"n":1,"t":1,"to":{"read":[1,0,1,0,9]},"u":1}}}}`,
		head+state+`,"records":{"x":{}}}}`,
		head+state+`,"records":[]}}`,
		head+`"state":{},"records":{}}}`,
		`{"format":"ucs_cognitive_export_v2","model":{"version":"v9","manifest":"x","capabilities":[]}}`,
		`{"format":"ucs_cognitive_export_v2","model":[]}`,
		`{"format":"ucs_cognitive_export_v2","model":{"version":"v4","manifest":"x","capabilities":[],"state":{"model":{}}}}`)
}

// A model member that is not as export writes it (a key that is not the
// model's, a count below zero, a state that is not one) is refused with invalid_value before
// anything else of the package is imported: the workspace is unchanged.
func TestImportModelRefusesMalformed(t *testing.T) {
	a := newV5Workspace(t)
	trainV5(t, a, "incident", incidentContext, 1, incidentRule...)
	b := newV5Workspace(t)
	before := statPrint(t, b.ws.Root())
	pkg := exportOf(t, a)
	m, _ := pkg.Get("model")
	for _, bad := range []pyjson.Value{
		m.With("records", pyjson.Obj(pyjson.KV("q\x1f0", pyjson.Obj()))),
		m.With("records", pyjson.Obj(pyjson.KV("c\x1f0", pyjson.Obj(pyjson.KV("m", -1), pyjson.KV("n", 0),
			pyjson.KV("t", 0), pyjson.KV("to", pyjson.Obj()), pyjson.KV("u", 0))))),
		m.With("state", "nothing"),
	} {
		_, err := b.Do(Call{Op: "import", Input: pkg.With("model", bad)})
		var e *fault.Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, "invalid_value", e.Code)
		assert.Equal(t, before, statPrint(t, b.ws.Root()))
	}
}
