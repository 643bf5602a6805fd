package relevance

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// TestPenaltyEnergy: one unit per dead end on each capability it names or
// its keywords evoke, once per dead end, only capabilities the manifest
// has; Applied lists them largest first, ties in the order first
// penalised.
func TestPenaltyEnergy(t *testing.T) {
	m := torusfield.DefaultManifest()
	dead := func(js string) knowledge.DeadEndHit {
		v, err := pyjson.Parse([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		return knowledge.DeadEndHit{Hit: knowledge.Hit{Entry: v}}
	}
	hits := []knowledge.DeadEndHit{
		dead(`{"capabilities": ["edit", "no_such_tool", "edit"]}`),
		dead(`{"capabilities": ["read"], "keywords": ["fetch"]}`),
		dead(`{"capabilities": ["edit"]}`),
	}
	order, energy := PenaltyEnergy(m, NewKeywords(m), hits)
	assert.Equal(t, []string{"edit", "read", "browser", "web_fetch"}, order)
	assert.Equal(t, map[string]float64{"edit": 2, "read": 1, "browser": 1, "web_fetch": 1}, energy)
	assert.Equal(t, `{"edit":2.0,"read":1.0,"browser":1.0,"web_fetch":1.0}`, string(pyjson.AppendCompact(nil, Applied(order, energy))))
	assert.Equal(t, `{}`, string(pyjson.AppendCompact(nil, Applied(nil, nil))))
}
