package transfer

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// A model that does not learn starts from nothing; a replay starts from
// the prior its event recorded, never from the peers (there are none to
// read), and without one from nothing.
func TestPrior(t *testing.T) {
	prior, from, err := Prior(advice.LookupModel("v2"), false, pyjson.NullValue(), nil)
	require.NoError(t, err)
	assert.Nil(t, prior)
	assert.Nil(t, from)

	v4 := advice.LookupModel("v4")
	prior, from, err = Prior(v4, false, pyjson.NullValue(), nil)
	require.NoError(t, err)
	assert.Nil(t, prior, "no peer has a model")
	assert.Nil(t, from)

	recorded := PriorInput(learn.New(*v4.Params), []string{"b", "c"})
	prior, from, err = Prior(v4, true, recorded, nil)
	require.NoError(t, err)
	require.NotNil(t, prior)
	assert.Equal(t, []string{"b", "c"}, from)
	assert.Equal(t, string(learn.New(*v4.Params).AppendJSON(nil)), string(prior.AppendJSON(nil)))

	prior, _, err = Prior(v4, true, pyjson.NullValue(), nil)
	require.NoError(t, err)
	assert.Nil(t, prior)
}
