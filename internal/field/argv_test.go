package field

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestArgv: a command line is recorded as valid JSON and read back byte
// for byte; a word that is UTF-8 stays a plain string.
func TestArgv(t *testing.T) {
	argv := []string{"curl", "\xff", "a\xfe\xffb", "é", ""}
	data := pyjson.AppendDumps(nil, EncodeArgv(argv))
	assert.Equal(t, "[\"curl\", {\"text\": \"\uFFFD\", \"base64\": \"/w==\"}, {\"text\": \"a\uFFFDb\", \"base64\": \"Yf7/Yg==\"}, \"é\", \"\"]",
		string(data))
	v, err := pyjson.Parse(data)
	require.NoError(t, err, "valid JSON")
	back, err := DecodeArgv(v)
	require.NoError(t, err)
	assert.Equal(t, argv, back)

	for _, bad := range []string{`[1]`, `[{"text": "x"}]`, `[{"base64": "!!"}]`, `[{"base64": "/w==", "text": "x", "more": 1}]`, `{}`} {
		_, err := DecodeArgv(mustParse(t, []byte(bad)))
		assert.Error(t, err, bad)
	}
}

func mustParse(t *testing.T, data []byte) pyjson.Value {
	t.Helper()
	v, err := pyjson.Parse(data)
	require.NoError(t, err)
	return v
}

func FuzzArgv(f *testing.F) {
	f.Add("ls", "\xff", "é")
	f.Add("", "a\x00b", "\xed\xa0\x80")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		argv := []string{a, b, c}
		data := pyjson.AppendDumps(nil, EncodeArgv(argv))
		if !utf8.Valid(data) {
			t.Fatalf("%q encodes to invalid UTF-8", argv)
		}
		v, err := pyjson.Parse(data)
		if err != nil {
			t.Fatalf("%q encodes to %s, which does not parse: %v", argv, data, err)
		}
		back, err := DecodeArgv(v)
		if err != nil || len(back) != 3 || back[0] != a || back[1] != b || back[2] != c {
			t.Fatalf("%q came back as %q, %v", argv, back, err)
		}
	})
}
