package relevance

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// An answer cut to the parts asked for keeps the cursor and the advisory
// id, which every use of it needs, and the answer's order.
func TestPickKeepsCursorAndAdvisoryInOrder(t *testing.T) {
	out := Advice{Cursor: "read", Resolved: []string{"read"}}.Members()
	out = append(out, pyjson.KV("advisory_id", "adv-1"))
	got := Pick(out, []string{"open_questions", "dead_ends"})
	assert.Equal(t, `{"cursor":"read","dead_ends":[],"open_questions":[],"advisory_id":"adv-1"}`,
		string(pyjson.AppendCompact(nil, got)))
}

// A consult answer's members after the reference's come in one order, and
// each only when the model has it: the advisory with its model, v5's task,
// what the policy refused, and a governing model's left_out and
// observations.
func TestAdviceMembersOfTheModel(t *testing.T) {
	keys := func(a Advice) []string {
		var out []string
		for _, m := range a.Members()[13:] {
			out = append(out, m.Key)
		}
		return out
	}
	assert.Empty(t, keys(Advice{Model: "v2"}), "v2 adds nothing")
	assert.Equal(t, []string{"advisory_id", "model", "task", "left_out_by_policy", "left_out", "observations"},
		keys(Advice{AdvisoryID: "adv-1", Model: "v5", Task: "t", LeftOutByPolicy: []pyjson.Value{}, Governs: true}))
	assert.Equal(t, []string{"advisory_id", "model", "left_out", "observations"},
		keys(Advice{AdvisoryID: "adv-1", Model: "v4", Governs: true}))
	assert.Len(t, Advice{}.Members(), 13, "the reference's members")
}
