package bridge

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// paraphraseCorpus is recall's corpus of entries and the paraphrases of
// the tasks they were written about (recall/testdata/paraphrases.json).
type paraphraseCorpus struct {
	Entries []struct {
		ID, Kind, Title, Text  string
		Keywords, Capabilities []string
	}
	Paraphrases []struct{ Context, Want string }
}

// writeCorpus writes every entry as an agent would: methodology as a
// post-task reflection, a dead end as one, a judgment node by a notable
// report; padding adds unrelated entries, so that the term index is used
// (more than one segment's tail). It returns how each entry shows in a
// consult: its text, or a dead end's topic.
func writeCorpus(t *testing.T, b *Bridge, c paraphraseCorpus, padding int) map[string]string {
	t.Helper()
	shown := map[string]string{}
	do := func(op string, v any) {
		raw, err := json.Marshal(v)
		require.NoError(t, err)
		_, err = b.Do(Call{Op: op, Input: input(t, string(raw))})
		require.NoError(t, err, "%s %s", op, raw)
	}
	for i := range padding {
		do("reflect", map[string]any{"type": "post_task", "capabilities": []string{"message"},
			"text": fmt.Sprintf("Weekly note %d: the standup moved to Thursday and the snacks budget was approved.", i)})
	}
	for _, e := range c.Entries {
		switch e.Kind {
		case "methodology":
			text := e.Title + ". " + e.Text
			do("reflect", map[string]any{"type": "post_task", "text": text, "capabilities": e.Capabilities, "keywords": e.Keywords})
			shown[e.ID] = text
		case "dead_end":
			do("reflect", map[string]any{"type": "dead_end", "topic": e.Title, "why_closed": e.Text,
				"capabilities": e.Capabilities, "keywords": e.Keywords})
			shown[e.ID] = e.Title
		case "judgment":
			do("report", map[string]any{"action": e.Capabilities[0], "outcome": e.Text, "success": "success",
				"significance": "notable", "context": e.Title})
			shown[e.ID] = e.Title
		}
	}
	return shown
}

// The entry written about a task comes back in a v4 consult's first three
// hits of its kind when the task is worded differently: recall's
// paraphrase table, through the whole consult (term index, ranking by
// relevance and recency, filters, caps). Judgment nodes and dead ends
// must also pass their stricter filters (a dead end shares two words with
// the context).
func TestConsultFindsParaphrases(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "recall", "testdata", "paraphrases.json"))
	require.NoError(t, err)
	var c paraphraseCorpus
	require.NoError(t, json.Unmarshal(raw, &c))
	kinds := map[string]string{}
	for _, e := range c.Entries {
		kinds[e.ID] = e.Kind
	}

	b := New(Options{Workspace: filepath.Join(t.TempDir(), "ws"), Now: testNow})
	_, err = b.Do(Call{Op: "init"})
	require.NoError(t, err)
	shown := writeCorpus(t, b, c, 150)

	part := map[string]string{"methodology": "methodology_hits", "dead_end": "dead_ends", "judgment": "judgment_hits"}
	hits, total := 0, 0
	var misses []string
	for _, p := range c.Paraphrases {
		out, err := b.Do(Call{Op: "consult", Args: pyjson.Obj(pyjson.KV("context", p.Context))})
		require.NoError(t, err)
		list, _ := out.Get(part[kinds[p.Want]])
		var got []string
		found := false
		for i, h := range list.Items() {
			var text string
			switch kinds[p.Want] {
			case "methodology":
				text = h.StrOf("summary")
			case "dead_end":
				text = h.StrOf("topic")
			case "judgment": // a hit names its node; the task is its context
				text = judgmentContext(t, b, h.StrOf("id"))
			}
			got = append(got, text)
			if i < 3 && strings.HasPrefix(shown[p.Want], strings.TrimSuffix(text, "…")) && text != "" {
				found = true
			}
		}
		total++
		if found {
			hits++
		} else {
			misses = append(misses, fmt.Sprintf("%q: want %s, got %q", p.Context, p.Want, got))
		}
	}
	score := float64(hits) / float64(total)
	t.Logf("hit@3 through consult: %.3f (%d of %d)", score, hits, total)
	for _, m := range misses {
		t.Logf("miss: %s", m)
	}
	assert.GreaterOrEqual(t, score, 0.9)
}

// judgmentContext is the task of the judgment node id.
func judgmentContext(t *testing.T, b *Bridge, id string) string {
	t.Helper()
	for _, v := range entries(t, b, workspace.RelJudgment) {
		if got, _ := v.Get("id"); got.Str() == id {
			ctx, _ := v.Get("context")
			task, _ := ctx.Get("task_description")
			return task.Str()
		}
	}
	return ""
}
