package advice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// The reference's model credits a rated step's edge as a report would,
// and can neither take an outcome back nor teach a step without an edge.
func TestTeachReference(t *testing.T) {
	man, err := torusfield.ParseManifest([]byte(`{"capabilities": [
	{"name": "read", "connects_to": ["edit"], "u": 0.6, "c": 0.2},
	{"name": "edit", "connects_to": ["read"], "u": 0.8, "c": 0.4}
], "semantic_map": {}}`))
	require.NoError(t, err)
	m := LookupModel(ModelV2)
	require.NotNil(t, m)

	e := torusfield.New(man, torusfield.Options{})
	ei := e.Graph.Find("read", "edit")
	require.GreaterOrEqual(t, ei, 0)
	want := torusfield.New(man, torusfield.Options{})
	credit := want.Credit(ei, m.Reward("success", want.Graph.Edges[ei].U), 1).Value(want)
	assert.Equal(t, string(pyjson.Canonical(credit)), string(pyjson.Canonical(TeachReference(e, m, "read", "edit", "success", false))))
	assert.Equal(t, want.Graph.Edges[ei].U, e.Graph.Edges[ei].U, "the edge is credited")

	u := e.Graph.Edges[ei].U
	took := TeachReference(e, m, "read", "edit", "success", true)
	assert.Equal(t, `{"note":"the reference's model cannot take an outcome back","retracted":false,"transition":"read → edit"}`, string(pyjson.Canonical(took)))
	assert.Equal(t, u, e.Graph.Edges[ei].U, "a retraction changes nothing")

	none := TeachReference(e, m, "edit", "edit", "failure", false)
	assert.Equal(t, `{"note":"no edge: nothing reinforced","transition":"edit → edit"}`, string(pyjson.Canonical(none)))
}
