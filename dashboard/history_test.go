package dashboard

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The page lists each context consulted once, the most recent first,
// blank ones never; it counts every distinct one and keeps MaxContexts.
func TestHistoryContexts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		given []string
		want  []string
		total int
	}{
		{"none", nil, nil, 0},
		{"most recent first", []string{"a", "b", "c"}, []string{"c", "b", "a"}, 3},
		{"once each, where last consulted", []string{"a", "b", "a"}, []string{"a", "b"}, 2},
		{"blank ones never", []string{" ", "a", ""}, []string{"a"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHistory()
			for i, c := range tc.given {
				h.Consulted(c, "2026-01-01T00:00:00+00:00", int64(i+1))
			}
			h.Close()
			var got []string
			for _, c := range h.Contexts {
				got = append(got, c.Text)
			}
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.total, h.ContextsTotal)
		})
	}
	h := NewHistory()
	for i := range MaxContexts + 7 {
		h.Consulted("task "+strconv.Itoa(i), "2026-01-01T00:00:00+00:00", int64(i))
	}
	h.Close()
	assert.Len(t, h.Contexts, MaxContexts)
	assert.Equal(t, MaxContexts+7, h.ContextsTotal)
	assert.Equal(t, "task "+strconv.Itoa(MaxContexts+6), h.Contexts[0].Text)
}

// The page keeps the newest MaxEvents events, newest first, and counts
// them all; reports are counted per day by outcome (none for neutral).
func TestHistoryEventsAndDays(t *testing.T) {
	h := NewHistory()
	n := 3*MaxEvents + 5
	for i := range n {
		h.Add(pyjson.Obj(pyjson.KV("seq", i)))
	}
	for _, r := range []struct{ now, success string }{
		{"2026-01-02T10:00:00+00:00", "success"},
		{"2026-01-01T10:00:00+00:00", "FAILURE"},
		{"2026-01-02T11:00:00+00:00", "partial"},
		{"2026-01-02T12:00:00+00:00", ""},
		{"2026-01-02T13:00:00+00:00", "neutral"},
	} {
		h.Reported(r.now, r.success)
	}
	h.Close()
	require.Len(t, h.Events, MaxEvents)
	assert.Equal(t, n, h.EventsTotal)
	first, _ := h.Events[0].Get("seq")
	last, _ := h.Events[MaxEvents-1].Get("seq")
	assert.Equal(t, strconv.Itoa(n-1), string(pyjson.AppendCompact(nil, first)))
	assert.Equal(t, strconv.Itoa(n-MaxEvents), string(pyjson.AppendCompact(nil, last)))
	assert.Equal(t, `[{"day":"2026-01-01","reports":1,"successes":0,"partials":0,"failures":1},`+
		`{"day":"2026-01-02","reports":4,"successes":1,"partials":1,"failures":0}]`,
		string(pyjson.AppendCompact(nil, pyjson.From(h.days()))))
}

// An event links to what it names, so the page can jump to its entry.
func TestEventLinks(t *testing.T) {
	for _, tc := range []struct{ ev, links string }{
		{`{"seq":1,"op":"report","input":{"action":"read","goal_id":"g1"}}`, `{"capability":"read","goal":"g1"}`},
		{`{"seq":2,"op":"goal close","args":{"id":"g2"}}`, `{"goal":"g2"}`},
		{`{"seq":3,"op":"goal add","args":{}}`, `{}`},
		{`{"seq":4,"op":"confirm","args":{"id":"o1"}}`, `{"observation":"o1"}`},
		{`{"seq":5,"op":"consult","args":{"context":"fix it"}}`, `{"context":"fix it"}`},
		{`{"seq":6,"op":"reflect","input":{"artifact_id":"a1"}}`, `{"reflect":"post_task","artifact":"a1"}`},
		{`{"seq":7,"op":"status"}`, `{}`},
		{`[]`, `{}`},
	} {
		ev, err := pyjson.Parse([]byte(tc.ev))
		require.NoError(t, err)
		links, _ := Event(ev, "what", "changed").Get("links")
		assert.Equal(t, tc.links, string(pyjson.AppendCompact(nil, links)), tc.ev)
	}
}

// Record reads a journal event as the journal holds it: a consult's
// context with its seq and time, a report's outcome on its day, and every
// event for the list.
func TestHistoryRecord(t *testing.T) {
	h := NewHistory()
	for _, line := range []string{
		`{"seq": 1, "op": "init", "args": {}, "input": null, "now": "2026-01-01T00:00:00+00:00"}`,
		`{"seq": 2, "op": "consult", "args": {"context": "pricing"}, "input": null, "now": "2026-01-01T00:01:00+00:00"}`,
		`{"seq": 3, "op": "report", "args": {}, "input": {"action": "web_fetch", "success": "Failure"}, "now": "2026-01-02T00:00:00+00:00"}`,
	} {
		ev, err := pyjson.Parse([]byte(line))
		require.NoError(t, err)
		h.Record(ev, "what", "changed")
	}
	h.Close()
	require.Len(t, h.Contexts, 1)
	assert.Equal(t, Context{Text: "pricing", Now: "2026-01-01T00:01:00+00:00", Seq: 2}, h.Contexts[0])
	assert.Equal(t, 3, h.EventsTotal)
	assert.Equal(t, `[{"day":"2026-01-02","reports":1,"successes":0,"partials":0,"failures":1}]`,
		string(pyjson.AppendCompact(nil, pyjson.From(h.days()))))
}
