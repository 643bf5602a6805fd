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

// FuzzDecodeReflection feeds any JSON object to the reflection's decoder:
// it answers an input with non-nil lists or a bad-input error, never
// panics.
func FuzzDecodeReflection(f *testing.F) {
	f.Add(`{"type": "dead_end", "topic": "t", "capabilities": ["a"]}`)
	f.Add(`{"type": "annotation", "text": "t", "artifact_id": "x"}`)
	f.Fuzz(func(t *testing.T, s string) {
		v, err := pyjson.Parse([]byte(s))
		if err != nil || v.Kind() != pyjson.Object {
			return
		}
		in, err := DecodeReflection(v)
		if err != nil {
			var fe *fault.Error
			if !errors.As(err, &fe) || fe.Kind != fault.KindBadInput {
				t.Fatalf("not a bad-input error: %v", err)
			}
			return
		}
		if in.Capabilities == nil || in.Keywords == nil {
			t.Fatal("a decoded reflection's lists are never nil")
		}
	})
}
