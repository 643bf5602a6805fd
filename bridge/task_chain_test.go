package bridge

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// teachTasks reports each task's rule (its steps, each a success) in the
// task's context, reps times under fresh task ids.
func teachTasks(t *testing.T, b *Bridge, rules map[string][]string, order []string, reps int) {
	t.Helper()
	for i := range reps {
		for _, ctx := range order {
			for _, a := range rules[ctx] {
				in := pyjson.Obj(pyjson.KV("action", a), pyjson.KV("success", "success"),
					pyjson.KV("task", ctx[:4]+string(rune('0'+i))), pyjson.KV("context", ctx))
				_, err := b.Do(Call{Op: "report", Input: in})
				require.NoError(t, err)
			}
		}
	}
}

// The per-task view follows each task's rule from its start, stops where
// the task's evidence ends, and every step is consult --from's first
// suggestion there (--task-start's at the start), with the same
// alternatives.
func TestTaskChain(t *testing.T) {
	rules := map[string][]string{
		"fix bug in the parser":                 {"read_file", "edit_file", "run_tests", "git_commit"},
		"incident: checkout returns 500 errors": {"read_logs", "git_log", "git_diff", "deploy"},
		"add feature flag support":              {"grep", "write_file", "run_build"},
		"research library options":              {"web_search", "web_fetch"},
	}
	order := []string{"fix bug in the parser", "incident: checkout returns 500 errors", "add feature flag support", "research library options"}
	b := newV5Workspace(t)
	teachTasks(t, b, rules, order, 2)
	out, err := b.Do(Call{Op: "show"})
	require.NoError(t, err)
	tasks, _ := out.Get("tasks")
	require.Len(t, tasks.Items(), 4)
	for i, task := range tasks.Items() {
		ctx := task.StrOf("context")
		assert.Equal(t, order[len(order)-1-i], ctx, "the newest task first")
		chain, _ := task.Get("chain")
		var steps []string
		for _, st := range chain.Items() {
			steps = append(steps, st.StrOf("to"))
			args := pyjson.Obj(pyjson.KV("context", ctx), pyjson.KV("fields", []string{"suggested_paths"}))
			if at, _ := st.Get("at"); at.IsNull() {
				args = args.With("task_start", true)
			} else {
				args = args.With("from", at.Str())
			}
			c, err := b.Do(Call{Op: "consult", Args: args})
			require.NoError(t, err)
			paths, _ := c.Get("suggested_paths")
			require.NotEmpty(t, paths.Items())
			assert.Equal(t, string(pyjson.AppendCompact(nil, advice.SuggestionBrief(paths.Items()[0]))),
				string(pyjson.AppendCompact(nil, withoutMembers(st, "at", "alternatives"))), "%s: the step is consult --from's first", ctx)
			alts, _ := st.Get("alternatives")
			require.Len(t, alts.Items(), len(paths.Items())-1)
			for j, a := range alts.Items() {
				assert.Equal(t, paths.Items()[j+1].StrOf("to"), a.StrOf("to"))
			}
		}
		assert.Equal(t, rules[ctx], steps[:min(len(steps), len(rules[ctx]))], "%s follows its rule", ctx)
	}
}

func withoutMembers(v pyjson.Value, keys ...string) pyjson.Value {
	var ms []pyjson.Member
	for _, m := range v.Members() {
		if !slices.Contains(keys, m.Key) {
			ms = append(ms, m)
		}
	}
	return pyjson.ObjectValue(ms)
}
