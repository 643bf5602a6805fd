package advice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A v5 state opens its model once, over the record log's keys of its own
// generation, with the prior it is given: a workspace that came back to
// v5 reads nothing its earlier period learned.
func TestStepsOpenReadsItsGeneration(t *testing.T) {
	for _, tc := range []struct {
		generation int64
		prefix     string
	}{
		{0, ""},
		{7, "7:"},
	} {
		v := NewSteps()
		v.Generation = tc.generation
		var read []string
		rd := func(key string) ([]byte, error) {
			read = append(read, key)
			return nil, nil
		}
		prior := func(string) float64 { return 0.25 }
		m := v.Open(*LookupModel(ModelV5).Steps, rd, prior)
		require.Same(t, m, v.Open(*LookupModel(ModelV5).Steps, rd, nil), "opened once")
		assert.InDelta(t, 0.25, m.Prior("x"), 0)
		m.Outcomes("read_file")
		require.NotEmpty(t, read, "the model reads its counts from the log")
		for _, k := range read {
			assert.Regexp(t, "^"+tc.prefix+"[^0-9]", k, "generation %d", tc.generation)
		}
	}
}

// A state whose model the call never opened changes nothing; one that
// learned gives its records and keeps the model's global numbers.
func TestStepsChanges(t *testing.T) {
	var none *Steps
	recs, err := none.Changes()
	require.NoError(t, err)
	assert.Nil(t, recs)
	v := NewSteps()
	recs, err = v.Changes()
	require.NoError(t, err)
	assert.Nil(t, recs, "not opened")

	m := v.Open(*LookupModel(ModelV5).Steps, func(string) ([]byte, error) { return nil, nil }, nil)
	m.Learn(PositionEpisode("", "fix it", "read"), "edit", true)
	recs, err = v.Changes()
	require.NoError(t, err)
	assert.NotEmpty(t, recs)
	assert.Equal(t, m.Globals(), v.Globals)
}
