package advice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A report is made in its own context and task, else in those of the
// consult since the report before; a consult counts for one report only.
func TestContexter(t *testing.T) {
	obj := func(kv ...string) pyjson.Value {
		var ms []pyjson.Member
		for i := 0; i < len(kv); i += 2 {
			ms = append(ms, pyjson.KV(kv[i], kv[i+1]))
		}
		return pyjson.ObjectValue(ms)
	}
	none := pyjson.NullValue()
	var rc Contexter
	events := []struct {
		op          string
		args, input pyjson.Value
	}{
		{"consult", obj("context", "fix the parser", "task", "t1"), none},
		{"report", none, obj("action", "read")},
		{"report", none, obj("action", "edit")},
		{"consult", obj("context", "deploy"), none},
		{"status", none, none},
		{"report", none, obj("context", "own words", "task", "t2")},
	}
	var got []ReportContext
	for i, ev := range events {
		if r, ok := rc.Next(ev.op, ev.args, ev.input, int64(i+1)); ok {
			got = append(got, r)
		}
	}
	assert.Equal(t, []ReportContext{
		{Text: "fix the parser", Task: "t1", Seq: 2},
		{Seq: 3},
		{Text: "own words", Task: "t2", Seq: 6},
	}, got)
}

// The action log's lines before the journal's reports (an adopted
// workspace's) have no context; a window's lines take the contexts that
// fall in it, newest first.
func TestHistoryReports(t *testing.T) {
	p := toyPlace(t)
	line := func(from, to string) pyjson.Value {
		return pyjson.Obj(pyjson.KV("cursor_before", from), pyjson.KV("action", to), pyjson.KV("success", "success"))
	}
	h := History{
		Lines:    []pyjson.Value{line("read", "edit"), line("edit", "test"), line("test", "deploy")},
		Contexts: []ReportContext{{Text: "b", Task: "t", Seq: 5}, {Text: "c", Seq: 6}},
		Offset:   1,
	}
	learned := p.LearnedReports(h)
	assert.Len(t, learned, 2, "deploy is not in the manifest")
	assert.Equal(t, "", learned[0].Context)
	assert.Equal(t, "b", learned[1].Context)
	assert.Equal(t, int64(5), learned[1].Clock)
	steps := h.StepReports()
	assert.Len(t, steps, 3)
	assert.Equal(t, Report{Action: "test", Success: "success", Weight: 1, Task: "t", Context: "b"}, steps[1])

	win := p.WindowReports(h.Lines[1:], []string{"b", "c"}, 0)
	assert.Len(t, win, 1)
	assert.Equal(t, "b", win[0].Context, "newest first; deploy left out")
}

// The journal's reports are the action log's last lines: a journal with
// more reports than the log has lines disagrees with it.
func TestNewHistoryOffset(t *testing.T) {
	lines := []pyjson.Value{pyjson.Obj(), pyjson.Obj(), pyjson.Obj()}
	h, err := NewHistory(lines, []ReportContext{{Text: "a"}})
	require.NoError(t, err)
	assert.Equal(t, 2, h.Offset)
	_, err = NewHistory(lines[:1], []ReportContext{{}, {}})
	assert.ErrorContains(t, err, "the journal holds 2 reports but the action log 1 lines")
}
