package fault

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestOneLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"  two\n lines\t", "two lines"},
		{"ws\x1b[31mred\x1b[0m", `ws\x1b[31mred\x1b[0m`},
		{"bell\a", `bell\a`},
		{"del\x7f", `del\x7f`},
		{"csi\u009b2J", `csi\u009b2J`},
		{"rtl\u202eoverride", `rtl\u202eoverride`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"héllo wörld ✓", "héllo wörld ✓"},
		{"real \ufffd replacement", "real \ufffd replacement"},
	} {
		assert.Equal(t, tc.want, OneLine(tc.in), "%q", tc.in)
	}
}

func TestJSONLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"error": "plain"}`, `{"error": "plain"}`},
		{`{"error": "héllo ✓"}`, `{"error": "héllo ✓"}`},
		{"{\"error\": \"csi\u009b2J del\x7f\"}", `{"error": "csi\u009b2J del\u007f"}`},
		{"{\"error\": \"rtl\u202e\"}", `{"error": "rtl\u202e"}`},
		{"{\"error\": \"tag\U000E0001\"}", `{"error": "tag\udb40\udc01"}`},
		{"{\"error\": \"bad\xff\"}", `{"error": "bad\ufffd"}`},
	} {
		assert.Equal(t, tc.want, string(JSONLine([]byte(tc.in))), "%q", tc.in)
	}
}

// FuzzOneLine: whatever a message holds, its line has no control or other
// unprintable character, and no line break.
func FuzzOneLine(f *testing.F) {
	for _, s := range []string{"", "a\x1b[2Jb", "\xff\xfe", "\u2028x\u0085", "\U000E0001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line := OneLine(s)
		if !utf8.ValidString(line) {
			t.Fatalf("OneLine(%q) = %q: not UTF-8", s, line)
		}
		for _, r := range line {
			if r != ' ' && !unicode.IsPrint(r) || r == '\n' {
				t.Fatalf("OneLine(%q) = %q holds %U", s, line, r)
			}
		}
	})
}

// FuzzJSONLine: the escaped line is the same JSON value, and printable.
func FuzzJSONLine(f *testing.F) {
	for _, s := range []string{"", "a\x1b[2Jb", "\u009b", "\u2028x\u0085", "\U000E0001", "\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\ufffd")
		}
		in, _ := json.Marshal(map[string]string{"error": s})
		in = []byte(strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&", `\u2028`, "\u2028", `\u2029`, "\u2029").Replace(string(in)))
		out := JSONLine(in)
		var got map[string]string
		if err := json.Unmarshal(out, &got); err != nil || got["error"] != s {
			t.Fatalf("JSONLine(%s) = %s: %v, %q", in, out, err, got["error"])
		}
		for _, r := range string(out) {
			if r != ' ' && !unicode.IsPrint(r) {
				t.Fatalf("JSONLine(%s) = %s holds %U", in, out, r)
			}
		}
	})
}
