package outcome

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

func TestDecodeReport(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		code     string // "" for none
	}{
		{"plain", `{"action": "a", "success": "success"}`, ""},
		{"expect without result", `{"action": "a", "expect": {"failure": true}}`, fault.CodeInvalidValue},
		{"bad expectation", `{"action": "a", "result": {"exit_code": 1}, "expect": {"nope": 1}}`, fault.CodeInvalidValue},
		{"control character", "{\"action\": \"a\\u0007\"}", fault.CodeInvalidValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := pyjson.Parse([]byte(tc.in))
			require.NoError(t, err)
			_, err = DecodeReport(v)
			if tc.code == "" {
				assert.NoError(t, err)
				return
			}
			var f *fault.Error
			require.True(t, errors.As(err, &f), "%v", err)
			assert.Equal(t, tc.code, f.Code)
		})
	}
}

func TestDecodeReportFields(t *testing.T) {
	v, err := pyjson.Parse([]byte(`{"action": "a", "outcome": "o", "success": "failure", "significance": "notable",
		"context": "c", "goal_id": "g", "reasoning_trace": {}, "result": {"exit_code": 0}}`))
	require.NoError(t, err)
	r, err := DecodeReport(v)
	require.NoError(t, err)
	assert.Equal(t, "a o failure notable c g", r.Action+" "+r.Outcome+" "+r.Success+" "+r.Significance+" "+r.Context+" "+r.GoalID)
	assert.False(t, r.HasReasoning, "the reference treats {} as no trace")
	assert.True(t, r.HasResult)
	assert.Equal(t, 1.0, r.Weight)
}

// FuzzDecodeReport feeds any JSON object to the report's decoder: it
// answers a report or a bad-input error, never panics.
func FuzzDecodeReport(f *testing.F) {
	f.Add(`{"action": "a", "result": {"exit_code": 2}, "expect": {"exit_codes": [2]}}`)
	f.Add(`{"action": "a", "reasoning_trace": {"why": 1}}`)
	f.Fuzz(func(t *testing.T, s string) {
		v, err := pyjson.Parse([]byte(s))
		if err != nil || v.Kind() != pyjson.Object {
			return
		}
		if _, err := DecodeReport(v); err != nil {
			var fe *fault.Error
			if !errors.As(err, &fe) || fe.Kind != fault.KindBadInput {
				t.Fatalf("not a bad-input error: %v", err)
			}
		}
	})
}
