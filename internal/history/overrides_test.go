package history

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// An override line keeps the reference's members in the reference's order.
func TestOverride(t *testing.T) {
	got := string(pyjson.AppendCompact(nil, Override(7, "2026-11-21T21:01:00+00:00", "a", "b", "no_direct_edge")))
	assert.Equal(t, `{"t":7,"timestamp":"2026-11-21T21:01:00+00:00","from":"a","to":"b","reason":"no_direct_edge"}`, got)
}
