package audit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

func parse(t *testing.T, s string) pyjson.Value {
	t.Helper()
	v, err := pyjson.Parse([]byte(s))
	require.NoError(t, err)
	return v
}

func TestStateDiff(t *testing.T) {
	for _, tc := range []struct {
		name, workspace, replayed string
		want                      []string
	}{
		{"equal", `{"a":1,"b":{"c":2}}`, `{"a":1,"b":{"c":2}}`, nil},
		{"top member", `{"a":1,"b":2}`, `{"a":1,"b":3}`, []string{"b"}},
		{"nested field", `{"state":{"grid":{"t":4,"n":1}}}`, `{"state":{"grid":{"t":5,"n":1}}}`, []string{"state.grid.t"}},
		{"deeper than three", `{"a":{"b":{"c":{"d":1}}}}`, `{"a":{"b":{"c":{"d":2}}}}`, []string{"a.b.c"}},
		{"kind changes", `{"a":{"b":1}}`, `{"a":[1]}`, []string{"a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range stateDiff(parse(t, tc.workspace), parse(t, tc.replayed)) {
				got = append(got, d.StrOf("field"))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestSummarizeAndChanged(t *testing.T) {
	for _, tc := range []struct{ event, what, changed string }{
		{`{"op":"report","input":{"action":"build","success":"success","significance":"key","goal_id":"g1"},"files":{"ucs/state/action_log.jsonl":{}}}`,
			"build success (key) for g1", "action_log.jsonl"},
		{`{"op":"report","input":{"action":"build"}}`, "build neutral", ""},
		{`{"op":"rate","args":{"seq":7,"success":"failure"},"agent_id":"a1"}`, "report 7: failure by a1", ""},
		{`{"op":"init","args":{"manifest_sha256":"0123456789abcdef"},"files":{"ucs/requests/r1.json":{}}}`, "manifest 0123456789ab", "request"},
		{`{"op":"consult","args":{"context":"ααααααααααααααααααααααααααααααααααααααααααααααααααααααααααααααααα"}}`,
			"ααααααααααααααααααααααααααααααααααααααααααααααααααααααααααα…", ""},
	} {
		ev := parse(t, tc.event)
		assert.Equal(t, tc.what, Summarize(ev, nil), tc.event)
		assert.Equal(t, tc.changed, Changed(ev), tc.event)
	}
}

func TestParseSince(t *testing.T) {
	seq, at, err := parseSince("120")
	require.NoError(t, err)
	assert.Equal(t, int64(120), seq)
	assert.True(t, at.IsZero())
	seq, at, err = parseSince("2026-11-21T22:01:00+01:00")
	require.NoError(t, err)
	assert.Zero(t, seq)
	assert.Equal(t, time.Date(2026, 11, 21, 21, 1, 0, 0, time.UTC), at)
	_, _, err = parseSince("yesterday")
	assert.Equal(t, fault.CodeInvalidValue, fault.AsError(err).Code)
}

func TestMigrationFrom(t *testing.T) {
	m, err := MigrationFrom(pyjson.Obj(), 1)
	require.NoError(t, err)
	assert.Equal(t, 2, m.To)
	_, err = MigrationFrom(pyjson.Obj(), 2)
	assert.Equal(t, fault.KindBadInput, fault.AsError(err).Kind, "already current")
	_, err = MigrationFrom(pyjson.Obj(pyjson.KV("from", 7)), 2)
	assert.Equal(t, fault.KindUnsupported, fault.AsError(err).Kind)
	_, err = MigrationFrom(pyjson.Obj(pyjson.KV("from", "1")), 2)
	assert.Equal(t, fault.CodeWrongType, fault.AsError(err).Code)
}
