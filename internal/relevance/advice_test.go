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
