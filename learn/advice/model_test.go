package advice

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// Storage names the reference's model without this package: the two
// names must be one, or a workspace written before models had names
// would replay with no model.
func TestModelV2IsStoragesLegacyModel(t *testing.T) {
	assert.Equal(t, workspace.LegacyModel, ModelV2)
	assert.NotNil(t, LookupModel(workspace.LegacyModel))
}

func TestModelRegistry(t *testing.T) {
	assert.Equal(t, []string{ModelV2, ModelV3, ModelV4, ModelV5}, Models())
	assert.Equal(t, []string{ModelV3, ModelV4, ModelV5}, LearningModels())
	assert.Nil(t, LookupModel("v9"))
	for _, tc := range []struct {
		name                            string
		own, learns, nextSteps, governs bool
	}{
		{ModelV2, false, false, false, false},
		{ModelV3, true, true, false, false},
		{ModelV4, true, true, false, true},
		{ModelV5, true, false, true, true},
	} {
		m := LookupModel(tc.name)
		assert.Equal(t, tc.own, m.UCSOwn(), tc.name)
		assert.Equal(t, tc.learns, m.Learns(), tc.name)
		assert.Equal(t, tc.nextSteps, m.NextSteps(), tc.name)
		assert.Equal(t, tc.governs, m.GovernsKnowledge(), tc.name)
	}
	var none *Model
	assert.False(t, none.UCSOwn())
	assert.False(t, none.GovernsKnowledge())
}
