package relevance

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A model that governs knowledge shows what its knowledge context found,
// without the reference's search (the Basis has no Source to search
// with), and what it left out; the basis's capabilities, energy and
// penalty go into the advice whatever the model.
func TestBasisCompleteGoverned(t *testing.T) {
	hit := func(s string) []pyjson.Value { return []pyjson.Value{pyjson.Obj(pyjson.KV("summary", s))} }
	b := Basis{Resolved: []string{"read"}, Energy: []torusfield.NodeEnergy{{Node: "read", Energy: 1.5}},
		PenaltyOrder: []string{"edit"}, Penalty: map[string]float64{"edit": 0.5}, governs: true,
		Found: Context{Methodology: hit("m"), DeadEnds: hit("d"), Judgment: hit("j"), LeftOut: pyjson.Obj(pyjson.KV("methodology", 2))}}
	var a Advice
	assert.NoError(t, b.Complete(nil, &a, 10))
	assert.Equal(t, Advice{Resolved: b.Resolved, Context: b.Energy, PenaltyOrder: b.PenaltyOrder, Penalty: b.Penalty,
		Methodology: hit("m"), DeadEnds: hit("d"), Judgment: hit("j"), Governs: true, LeftOut: b.Found.LeftOut}, a)
}
