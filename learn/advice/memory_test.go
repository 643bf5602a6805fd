package advice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A call that does not decode the learned state writes it back byte for
// byte; the reference's model has no member; a state without one gets a
// new model's.
func TestMemoryAppendMember(t *testing.T) {
	const state = `{"t":1}`
	raw := []byte(`{"kept":"as read"}`)
	for _, tc := range []struct {
		model string
		raw   []byte
		want  string
	}{
		{ModelV2, raw, state},
		{ModelV4, raw, `{"t":1,"learn":{"kept":"as read"}}`},
		{ModelV5, raw, `{"t":1,"learn":{"kept":"as read"}}`},
		{ModelV4, nil, `{"t":1,"learn":` + string(NewLearnState(LookupModel(ModelV4)).AppendJSON(nil)) + `}`},
		{ModelV5, nil, `{"t":1,"learn":` + string(NewSteps().AppendJSON(nil)) + `}`},
	} {
		mem := Memory{Raw: tc.raw}
		assert.Equal(t, tc.want, string(mem.AppendMember(LookupModel(tc.model), []byte(state))), tc.model)
	}
}

// Each model decodes only its own kind of state: a v5 workspace has no
// learn.State, a v4 one no Steps, the reference's neither.
func TestMemoryDecodesItsModelsState(t *testing.T) {
	var mem Memory
	v, err := mem.Learned(LookupModel(ModelV5))
	require.NoError(t, err)
	assert.Nil(t, v)
	st, err := mem.LearnedSteps(LookupModel(ModelV5))
	require.NoError(t, err)
	require.NotNil(t, st)
	assert.Nil(t, mem.Advisories())

	mem = Memory{Raw: []byte(`not json`)}
	_, err = mem.Learned(LookupModel(ModelV4))
	assert.Error(t, err)
	_, err = mem.LearnedSteps(LookupModel(ModelV5))
	assert.Error(t, err)
	st, err = mem.LearnedSteps(LookupModel(ModelV2))
	assert.NoError(t, err)
	assert.Nil(t, st)
}
