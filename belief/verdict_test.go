package belief

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A verdict's applied act and evidence kind: the agent's own word weighs
// as a report and cannot retire; an operator's weighs as the operator's.
func TestVerdictKinds(t *testing.T) {
	for _, c := range []struct {
		v             Verdict
		applied, kind string
	}{
		{Verdict{Act: "confirm", By: Operator}, "confirm", FromOperator},
		{Verdict{Act: "confirm", By: "alice"}, "confirm", FromRating},
		{Verdict{Act: "retire", By: Operator}, "retire", FromOperator},
		{Verdict{Act: "retire", By: "agent-1", Agent: true}, "contradict", FromReport},
		{Verdict{Act: "contradict", By: Operator, Agent: true}, "contradict", FromReport},
	} {
		assert.Equal(t, c.applied, c.v.Applied(), "%+v", c.v)
		assert.Equal(t, c.kind, c.v.SourceKind(), "%+v", c.v)
	}
}

func TestJudgeAndSelect(t *testing.T) {
	b := NewBook()
	o, _, err := b.Observe(DeriveKey("", "", "", "dead_end", []string{"web_fetch"}, nil, "large pages"),
		"web_fetch truncates pages over 1 MB", ev("r1", FromReflection, Support, "agent-1"), t0)
	require.NoError(t, err)

	_, ch, err := b.Judge(witness{}, Verdict{Act: "confirm", ID: o.ID, By: Operator, Note: "checked"})
	require.NoError(t, err)
	assert.Equal(t, Active, ch.After)
	assert.Equal(t, 1.0, o.Confidence.Operator)

	_, ch, err = b.Judge(witness{}, Verdict{Act: "retire", ID: o.ID, By: Operator})
	require.NoError(t, err)
	assert.Equal(t, Invalidated, ch.After)
	assert.Empty(t, b.Select("believed"))
	assert.Len(t, b.Select("invalidated"), 1)
	assert.Len(t, b.Select("all"), 1)

	_, _, err = b.Judge(witness{}, Verdict{Act: "confirm", ID: o.ID})
	assert.ErrorIs(t, err, ErrNotCurrent)
	_, _, err = b.Judge(witness{}, Verdict{Act: "praise", ID: o.ID})
	assert.Error(t, err)
}

// A verdict's answer says the act applied in the past tense: the agent's
// own retirement is a contradiction.
func TestVerdictStatus(t *testing.T) {
	for _, tc := range []struct {
		v    Verdict
		want string
	}{
		{Verdict{Act: "confirm"}, "confirmed"},
		{Verdict{Act: "contradict"}, "contradicted"},
		{Verdict{Act: "retire"}, "retired"},
		{Verdict{Act: "retire", Agent: true}, "contradicted"},
		{Verdict{Act: "other"}, ""},
	} {
		assert.Equal(t, tc.want, tc.v.Status(), tc.v.Act)
	}
}
