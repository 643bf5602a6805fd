package pyjson

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLeadMember(t *testing.T) {
	tests := []struct {
		name, doc string
		want      string // the member's compact JSON; "" when the look fails
	}{
		{"first member", `{"ucs": {"seq": 3}, "version": 1}`, `{"seq":3}`},
		{"white space", " \n{ \"ucs\" :\n  {\"seq\": 3} ,", `{"seq":3}`},
		{"the rest is not read", `{"ucs": 1, !!`, `1`},
		{"a repeated key inside: the last", `{"ucs": {"a": 1, "a": 2}}`, `{"a":2}`},
		{"not first", `{"version": 1, "ucs": {}}`, ""},
		{"escaped key", `{"\u0075cs": {}}`, ""},
		{"a longer key", `{"ucsx": {}}`, ""},
		{"a shorter key", `{"uc": {}}`, ""},
		{"no colon", `{"ucs" {}}`, ""},
		{"malformed value", `{"ucs": {"seq": }}`, ""},
		{"NaN", `{"ucs": NaN}`, ""},
		{"unterminated", `{"ucs": {"seq": 3`, ""},
		{"invalid UTF-8 in the member", "{\"ucs\": \"\xff\"}", ""},
		{"not an object", `["ucs"]`, ""},
		{"empty", ``, ""},
		{"empty object", `{}`, ""},
		{"too deep", `{"ucs": ` + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + `}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := LeadMember([]byte(tt.doc), "ucs")
			if tt.want == "" {
				assert.False(t, ok)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tt.want, string(AppendCompact(nil, v)))
		})
	}
}

// FuzzLeadMember: the quick look never panics, and what it finds in a
// document Parse accepts is the document's first member as Parse reads it.
func FuzzLeadMember(f *testing.F) {
	for _, s := range []string{
		`{"ucs": {"seq": 3}, "version": 1}`, `{"ucs": 1, "ucs": 2}`,
		`{"ucs": "\u00e9", "a": [1, 2.5]}`, `{"a": 1}`, `{"ucs": [[[]]]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, ok := LeadMember(data, "ucs")
		doc, err := Parse(data)
		if !ok || err != nil {
			return
		}
		mems := doc.Members()
		require.NotEmpty(t, mems)
		require.Equal(t, "ucs", mems[0].Key)
		if strings.Count(string(data), `"ucs"`) == 1 { // a repeated key takes the last value
			assert.Equal(t, string(AppendCompact(nil, mems[0].Value)), string(AppendCompact(nil, v)))
		}
	})
}
