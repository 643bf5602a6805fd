package advice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// Each model learns a report its own way and keeps what the action log
// records of it; v3 attributes the outcome to no advice, v4 to the
// consult it followed; the reference's model learns nothing.
func TestMemoryLearn(t *testing.T) {
	p := toyPlace(t)
	in := outcome.Report{Action: "edit", Success: "success", Context: "fix the parser", Weight: 1}
	consulted := learn.Advisory{ID: "adv1", Cursor: "read", Top: "edit", Seq: 1, Observations: []string{"o1"}}

	var mem Memory
	_, ok := mem.Learn(p, LookupModel(ModelV2), nil, in, "", "", "read", 2)
	assert.False(t, ok)

	for _, tc := range []struct {
		model      string
		attributes bool
	}{{ModelV3, false}, {ModelV4, true}} {
		m := LookupModel(tc.model)
		mem := Memory{State: NewLearnState(m)}
		mem.State.Advisories = []learn.Advisory{consulted}
		l, ok := mem.Learn(p, m, nil, in, "", "adv1", "read", 2)
		require.True(t, ok, tc.model)
		assert.Equal(t, tc.attributes, l.Advisory != nil, tc.model)
		assert.Equal(t, l.After, mem.After, tc.model)
		assert.NotEmpty(t, l.Members, tc.model)
	}

	m := LookupModel(ModelV5)
	mem = Memory{Steps: NewSteps()}
	sm := nextstep.New(*m.Steps)
	sm.Prior = p.Prior
	l, ok := mem.Learn(p, m, sm, in, "t1", "", "read", 2)
	require.True(t, ok)
	require.NotNil(t, l.Step)
	assert.Same(t, l.Step, mem.StepLearned)
}
