package goal

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The member's bytes are those workspaces already hold: compact as
// json.dumps writes it, in a fixed member order, "numbered" only in a
// book that numbers its goals.
func TestAppendJSONBytes(t *testing.T) {
	gb := &Book{Open: []*Goal{{ID: "g1", Content: "ship it", Criterion: CriterionCount, Target: 2, RetryBudget: 2, RetriesLeft: 1,
		State: Active, Created: "2026-01-02T03:04:05Z", Failures: 1, Last: &Outcome{Seq: 3, Action: "run", Status: "failure", Confidence: 0.5}}}}
	const open = `"open": [{"id": "g1", "content": "ship it", "parent": "", "criterion": "count", "target": 2, "confidence": 0.0, ` +
		`"retry_budget": 2, "retries_left": 1, "state": "active", "created": "2026-01-02T03:04:05Z", "closed": "", ` +
		`"counts": [0, 1, 0, 0, 0], "last": [3, "run", "failure", 0.5], "note": ""}]`
	assert.Equal(t, `{"closed": [], `+open+`}`, string(gb.AppendJSON(nil)))
	gb.Numbered = 1
	got := gb.AppendJSON(nil)
	assert.Equal(t, `{"closed": [], "numbered": 1, `+open+`}`, string(got))
	back, err := Decode(got)
	require.NoError(t, err)
	assert.Equal(t, gb, back)
}

func TestDecodeRefuses(t *testing.T) {
	for _, raw := range []string{`{`, `{"numbered": 0}`, `{"numbered": 1.5}`, `{"open": [{"id": 1}]}`,
		`{"open": [{"id": "g1", "content": "", "parent": "", "criterion": "count", "state": "lost", "created": "", "closed": "", "note": "",
		"target": 1, "confidence": 0, "retry_budget": 0, "retries_left": 0, "counts": [0, 0, 0, 0, 0]}]}`} {
		_, err := Decode([]byte(raw))
		assert.Error(t, err, raw)
	}
}

// FuzzDecode: no input makes Decode panic, and what it accepts encodes to
// bytes it reads back the same.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"closed": [], "numbered": 2, "open": []}`))
	f.Add([]byte(`{"closed": [], "open": [{"id": "g1", "content": "x", "parent": "", "criterion": "outcome_threshold", "target": 1, "confidence": 0.9, "retry_budget": 0, "retries_left": 0, "state": "suspended", "created": "t", "closed": "", "counts": [1, 0, 0, 0, 0], "last": [3, "a", "success", 0.5], "note": ""}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		gb, err := Decode(raw)
		if err != nil {
			return
		}
		out := gb.AppendJSON(nil)
		back, err := Decode(out)
		if err != nil {
			t.Fatalf("Decode refuses what AppendJSON wrote: %q: %v", out, err)
		}
		if again := back.AppendJSON(nil); !bytes.Equal(again, out) {
			t.Fatalf("not stable: %q then %q", out, again)
		}
	})
}

// A member repeated in a corrupt state file means the same to the goals'
// decoder as to the parser of the whole state file (pyjson, the last one
// counts): the goal a call sees is the one check and verify see.
func TestDecodeRepeatedKeyAsTheStateParser(t *testing.T) {
	const goal = `{"id": "g1", "id": "g2", "content": "first", "content": "second", "parent": "", "criterion": "count",
		"target": 1, "target": 3, "confidence": 0, "retry_budget": 2, "retries_left": 2, "state": "failed", "state": "active",
		"created": "t", "closed": "", "counts": [0, 0, 0, 0, 0], "counts": [1, 0, 0, 0, 0], "last": null, "note": ""}`
	raw := []byte(`{"closed": [], "numbered": 1, "open": [], "numbered": 2, "open": [` + goal + `]}`)
	gb, err := Decode(raw)
	require.NoError(t, err)
	doc, err := pyjson.Parse(raw)
	require.NoError(t, err)
	n, _ := doc.Get("numbered")
	want, _ := n.Int()
	assert.Equal(t, want, gb.Numbered)
	open, _ := doc.Get("open")
	require.Len(t, open.Items(), 1)
	require.Len(t, gb.Open, 1)
	g := open.Items()[0]
	for key, got := range map[string]string{"id": gb.Open[0].ID, "content": gb.Open[0].Content, "state": gb.Open[0].State} {
		assert.Equal(t, g.StrOf(key), got, key)
	}
	target, _ := g.Get("target")
	tn, _ := target.Int()
	assert.Equal(t, tn, gb.Open[0].Target)
	assert.Equal(t, int64(1), gb.Open[0].Successes, "the last counts")
	assert.Equal(t, &Book{Numbered: 2, Open: []*Goal{{ID: "g2", Content: "second", Criterion: CriterionCount, Target: 3,
		RetryBudget: 2, RetriesLeft: 2, State: Active, Created: "t", Successes: 1}}}, gb)
}
