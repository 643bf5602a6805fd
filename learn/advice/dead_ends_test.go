package advice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// A dead end weighs one unit on each capability of the manifest it names,
// once however often it names it; its keywords evoke nothing.
func TestDeadEndPenalty(t *testing.T) {
	p := toyPlace(t)
	for _, tc := range []struct {
		name   string
		hits   []string
		order  []string
		energy map[string]float64
	}{
		{"none", nil, nil, map[string]float64{}},
		{"one", []string{`{"capabilities":["edit","test"],"keywords":["read"]}`}, []string{"edit", "test"}, map[string]float64{"edit": 1, "test": 1}},
		{"repeated in one", []string{`{"capabilities":["edit","edit"]}`}, []string{"edit"}, map[string]float64{"edit": 1}},
		{"two, first named first", []string{`{"capabilities":["test"]}`, `{"capabilities":["edit","test"]}`}, []string{"test", "edit"}, map[string]float64{"test": 2, "edit": 1}},
		{"not in the manifest", []string{`{"capabilities":["deploy",3]}`}, nil, map[string]float64{}},
	} {
		var hits []knowledge.DeadEndHit
		for _, h := range tc.hits {
			e, err := pyjson.Parse([]byte(h))
			require.NoError(t, err)
			hits = append(hits, knowledge.DeadEndHit{Hit: knowledge.Hit{Entry: e}})
		}
		order, energy := p.DeadEndPenalty(hits)
		assert.Equal(t, tc.order, order, tc.name)
		assert.Equal(t, tc.energy, energy, tc.name)
	}
}
