package advice

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A chain stops at a repeat, at a step without evidence here, and after
// ChainMax steps: HasEvidence decides the second.
func TestHasEvidence(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		want       bool
	}{
		{"v5 followed here in any task", `{"evidence":{"next_step":{"level":"state","times":2,"of":3},"outcomes":{"successes":2,"failures":0}}}`, false},
		{"v5 in tasks like this", `{"evidence":{"next_step":{"level":"term","term":"fix","times":2,"of":3},"outcomes":{"successes":2,"failures":0}}}`, true},
		{"v5 in this task", `{"evidence":{"next_step":{"level":"task","times":1,"of":1},"outcomes":{"successes":1,"failures":0}}}`, true},
		{"v5 never next here", `{"evidence":{"next_step":{"level":"state","times":0,"of":3},"outcomes":{"successes":2,"failures":0}}}`, false},
		{"v5 only anywhere", `{"evidence":{"next_step":{"level":"any","times":4,"of":9},"outcomes":{"successes":4,"failures":0}}}`, false},
		{"v5 nothing", `{"evidence":{"next_step":null,"outcomes":{"successes":0,"failures":0}}}`, false},
		{"v4 outcomes", `{"evidence":{"all_contexts":{"successes":0.5,"of":1}}}`, true},
		{"v4 none", `{"evidence":{"all_contexts":{"successes":0,"of":0}}}`, false},
		{"v2", `{"to":"read","score":1.2}`, true},
	} {
		v, err := pyjson.Parse([]byte(tc.json))
		require.NoError(t, err)
		assert.Equal(t, tc.want, HasEvidence(v), tc.name)
	}
}

// Show's and view's chains are the newest tasks' first, one per task as
// v5 tells them apart, at most n; a chain's error is the answer's, and
// no task is none.
func TestChains(t *testing.T) {
	reports := []ReportContext{{Text: "fix the parser"}, {Text: "deploy staging"}, {Text: "fix the parser"}, {Text: "write docs"}}
	var asked []string
	chain := func(context string) ([]ChainStep, error) {
		asked = append(asked, context)
		return nil, nil
	}
	out, err := Chains(reports, 2, chain)
	require.NoError(t, err)
	assert.Equal(t, []string{"write docs", "fix the parser"}, asked)
	require.Len(t, out, 2)
	assert.Equal(t, `{"context":"write docs","chain":[]}`, string(pyjson.AppendCompact(nil, out[0])))

	out, err = Chains(nil, 2, chain)
	require.NoError(t, err)
	assert.NotNil(t, out, "an empty list, not null")
	boom := errors.New("boom")
	_, err = Chains(reports, 2, func(string) ([]ChainStep, error) { return nil, boom })
	assert.ErrorIs(t, err, boom)
}
