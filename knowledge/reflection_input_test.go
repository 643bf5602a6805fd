package knowledge

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

func TestDecodeReflection(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		code     string // "" for none
	}{
		{"post_task", `{"type": "post_task", "text": "t"}`, ""},
		{"dead end with a topic only", `{"type": "dead_end", "topic": "x"}`, ""},
		{"dead end with neither", `{"type": "dead_end", "text": " "}`, fault.CodeMissingField},
		{"text missing", `{"type": "experiment"}`, fault.CodeMissingField},
		{"text blank", `{"type": "experiment", "text": "  "}`, fault.CodeMissingField},
		{"annotation without artifact", `{"type": "annotation", "text": "t"}`, fault.CodeMissingField},
		{"capability with a control character", "{\"type\": \"post_task\", \"text\": \"t\", \"capabilities\": [\"a\\u0000\"]}", fault.CodeInvalidValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := pyjson.Parse([]byte(tc.in))
			require.NoError(t, err)
			_, err = DecodeReflection(v)
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
