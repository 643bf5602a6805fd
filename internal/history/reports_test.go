package history

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// reportsWorkspace is a workspace on the embedded manifest whose journal
// holds the events given, each whose input names an action committed
// with the action-log line a report writes; the state file holds nothing
// but its meta.
func reportsWorkspace(t *testing.T, events ...workspace.Event) *workspace.Workspace {
	t.Helper()
	l := workspace.New(filepath.Join(t.TempDir(), "ws"), workspace.Options{Manifests: workspace.Manifests{
		Parse:   func(raw []byte) (workspace.Manifest, error) { return torusfield.ParseManifest(raw) },
		Default: torusfield.DefaultManifestJSON}})
	state := func(dst []byte, lead pyjson.Member) []byte { return pyjson.AppendCompact(dst, pyjson.Obj(lead)) }
	now := time.Date(2026, 11, 21, 21, 1, 0, 0, time.UTC)
	tx, err := l.Create(false, now)
	require.NoError(t, err)
	tx.Meta.Model, tx.Meta.AgentID = workspace.LegacyModel, "test"
	tx.Pin(torusfield.DefaultManifestJSON(), torusfield.DefaultManifest())
	_, err = tx.Commit(workspace.Event{Op: "init", Args: pyjson.Obj(), Input: pyjson.NullValue(), Now: "2026-11-21T21:01:00+00:00"}, state)
	tx.Close()
	require.NoError(t, err)
	for _, ev := range events {
		tx, err := l.Begin(true)
		require.NoError(t, err)
		if _, ok := ev.Input.Get("action"); ok {
			tx.Add(workspace.RelActionLog, pyjson.Obj(pyjson.KV("action", ev.Input.StrOf("action"))))
		}
		ev.Now = "2026-11-21T21:01:00+00:00"
		_, err = tx.Commit(ev, state)
		tx.Close()
		require.NoError(t, err)
	}
	return l
}

// A report takes its own context, else that of the consult since the
// report before; the history joins the contexts to the log's lines.
func TestReports(t *testing.T) {
	consult := workspace.Event{Op: "consult", Args: pyjson.Obj(pyjson.KV("context", "pricing"), pyjson.KV("task", "t1")), Input: pyjson.NullValue()}
	report := func(action, context string) workspace.Event {
		in := pyjson.Obj(pyjson.KV("action", action))
		if context != "" {
			in = in.With("context", context)
		}
		return workspace.Event{Op: "report", Args: pyjson.Obj(), Input: in}
	}
	l := reportsWorkspace(t, consult, report("a", ""), report("b", ""), report("c", "own"))
	contexts, err := ReportContexts(l)
	require.NoError(t, err)
	assert.Equal(t, []advice.ReportContext{{Text: "pricing", Task: "t1", Seq: 3}, {Seq: 4}, {Text: "own", Seq: 5}}, contexts)

	tx, err := l.Begin(false)
	require.NoError(t, err)
	defer tx.Close()
	h, err := Reports(tx, l)
	require.NoError(t, err)
	assert.Equal(t, 0, h.Offset)
	require.Len(t, h.Lines, 3)
	assert.Equal(t, "c", h.Lines[2].StrOf("action"))
	assert.Equal(t, contexts, h.Contexts)
}

// A workspace with no journal has no reports; a journal with more reports
// than the action log has lines is corrupt.
func TestReportsDisagree(t *testing.T) {
	none := workspace.New(filepath.Join(t.TempDir(), "none"), workspace.Options{})
	contexts, err := ReportContexts(none)
	require.NoError(t, err)
	assert.Empty(t, contexts)

	l := reportsWorkspace(t, workspace.Event{Op: "report", Args: pyjson.Obj(), Input: pyjson.Obj()})
	tx, err := l.Begin(false)
	require.NoError(t, err)
	defer tx.Close()
	_, err = Reports(tx, l)
	require.Error(t, err)
	assert.Equal(t, fault.KindCorrupt, fault.AsError(err).Kind)
}
