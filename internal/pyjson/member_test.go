package pyjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMemberAccessors(t *testing.T) {
	fallback := StringValue("fallback")
	tests := []struct {
		name, json, key string
		str             string
		strs            []string
		getOr           string // the member's JSON, or fallback's
	}{
		{"string", `{"a": "x"}`, "a", "x", nil, `"x"`},
		{"missing", `{"a": "x"}`, "b", "", nil, `"fallback"`},
		{"not a string", `{"a": 1}`, "a", "", nil, `1`},
		{"null", `{"a": null}`, "a", "", nil, `null`},
		{"not an object", `["a"]`, "a", "", nil, `"fallback"`},
		{"list", `{"a": ["x", "y"]}`, "a", "", []string{"x", "y"}, `["x", "y"]`},
		{"list with a non-string", `{"a": ["x", 2, null]}`, "a", "", []string{"x", "", ""}, `["x", 2, null]`},
		{"empty list", `{"a": []}`, "a", "", nil, `[]`},
		{"repeated key: the last", `{"a": "x", "a": "y"}`, "a", "y", nil, `"y"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Parse([]byte(tt.json))
			require.NoError(t, err)
			assert.Equal(t, tt.str, v.StrOf(tt.key))
			assert.Equal(t, tt.strs, v.StrsOf(tt.key))
			assert.Equal(t, tt.getOr, string(AppendDumps(nil, v.GetOr(tt.key, fallback))))
		})
	}
}
