package advice

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// A position is a capability of the manifest (a misspelt one is answered
// with the nearest name) or, on v5 alone, a task's start.
func TestCheckPosition(t *testing.T) {
	p := toyPlace(t)
	for _, tc := range []struct {
		model, from string
		start       bool
		code, hint  string
	}{
		{"v5", "edit", false, "", ""},
		{"v2", "read", false, "", ""},
		{"v5", "", true, "", ""},
		{"v5", "tset", false, fault.CodeInvalidValue, `did you mean "test"? --from takes a capability of the manifest`},
		{"v3", "", true, fault.CodeUnsupportedVersion, ""},
		{"v2", "", true, fault.CodeUnsupportedVersion, ""},
	} {
		err := p.CheckPosition(tc.model, tc.from, tc.start)
		if tc.code == "" {
			assert.NoError(t, err, "%+v", tc)
			continue
		}
		var e *fault.Error
		require.True(t, errors.As(err, &e), "%+v", tc)
		assert.Equal(t, tc.code, e.Code, "%+v", tc)
		if tc.hint != "" {
			assert.Equal(t, tc.hint, e.Hint, "%+v", tc)
		}
	}
}
