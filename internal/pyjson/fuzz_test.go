package pyjson

import (
	"bytes"
	"os"
	"testing"
)

// FuzzParse: Parse never panics, and whatever it accepts survives writing and
// reparsing: Canonical is a fixed point and Indent reparses to the same value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `0`, `-0.0`, `1e-05`, `"x"`, `null`, `true`,
		`{"b": [1, 2.5, "\u00e9\ud83d\ude00\n"], "a": {"a": 1, "a": null}}`,
		`[9223372036854775807, -9223372036854775808, 1.7976931348623157e308, 5e-324]`,
		`"\u0000\u001f\"\\\/\b\f\n\r\t"`,
		`[[[[{"": [{}]}]]]]`,
	} {
		f.Add([]byte(s))
	}
	if data, err := os.ReadFile(statePath); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		c := Canonical(v)
		v2, err := Parse(c)
		if err != nil {
			t.Fatalf("Canonical output %q does not parse: %v", c, err)
		}
		if c2 := Canonical(v2); !bytes.Equal(c, c2) {
			t.Fatalf("Canonical not a fixed point:\n%q\n%q", c, c2)
		}
		ind := Indent(v)
		v3, err := Parse(ind)
		if err != nil {
			t.Fatalf("Indent output %q does not parse: %v", ind, err)
		}
		if c3 := Canonical(v3); !bytes.Equal(c, c3) {
			t.Fatalf("Indent changed the value:\n%q\n%q", c, c3)
		}
	})
}
