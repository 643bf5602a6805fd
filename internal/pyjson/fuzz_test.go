package pyjson

import (
	"bytes"
	"os"
	"testing"
)

// maxFuzzInput bounds the inputs the fuzzer mutates. Each new interesting
// input is minimized for up to -fuzzminimizetime (60s by default), and for a
// mutated 124 KB state file (milliseconds per run) or even a 7 KB excerpt
// that stalls both workers for most of a short session. The full state file
// is still checked as a seed; a compact excerpt of it is mutated instead.
const maxFuzzInput = 4 << 10

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
	state, err := os.ReadFile(statePath)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(state)
	v, err := Parse(state)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(Indent(excerpt(v, 4)))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput && !bytes.Equal(data, state) {
			return
		}
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

// excerpt returns v with every array and object cut to its first n
// elements: a small document of the same shape.
func excerpt(v Value, n int) Value {
	switch v.Kind() {
	case Array:
		var out []Value
		for _, item := range v.Items()[:min(n, len(v.Items()))] {
			out = append(out, excerpt(item, n))
		}
		return ArrayValue(out)
	case Object:
		var out []Member
		for _, m := range v.Members()[:min(n, len(v.Members()))] {
			out = append(out, Member{m.Key, excerpt(m.Value, n)})
		}
		return ObjectValue(out)
	}
	return v
}
