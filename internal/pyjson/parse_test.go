package pyjson

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseErrors(t *testing.T) {
	deepArray := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	deepObject := strings.Repeat(`{"a":`, maxDepth+1) + "0" + strings.Repeat("}", maxDepth+1)
	for _, tc := range []struct {
		name, in string
		offset   int64
		msg      string // substring of the message
	}{
		// Stricter than json.loads.
		{"NaN", `NaN`, 0, "NaN"},
		{"NaN in array", `[1, NaN]`, 4, "NaN"},
		{"Infinity", `Infinity`, 0, "Infinity"},
		{"-Infinity", `{"a": -Infinity}`, 6, "-Infinity"},
		{"invalid UTF-8 byte", "\"ab\xff\"", 3, "UTF-8"},
		{"UTF-8 encoded surrogate", "\"\xed\xa0\x80\"", 1, "UTF-8"},
		{"overlong UTF-8", "[\"\xc0\x80\"]", 2, "UTF-8"},
		{"truncated UTF-8", "\"\xe2\x82", 1, "UTF-8"},
		{"invalid UTF-8 outside strings", "[1]\xff", 3, "UTF-8"},
		{"byte order mark", "\ufeff{}", 0, "unexpected character"},
		{"lone high surrogate", `"\ud800"`, 1, "surrogate"},
		{"lone high surrogate later", `["ab\uD800x"]`, 4, "surrogate"},
		{"high surrogate then non-low", `"\ud800\u0041"`, 1, "surrogate"},
		{"high surrogate then high", `"\ud800\udbff"`, 1, "surrogate"},
		{"lone low surrogate", `"\udc00"`, 1, "surrogate"},
		{"float overflow", `1e400`, 0, "overflows float64"},
		{"float overflow in array", `[1, -1e400]`, 4, "overflows float64"},
		{"float overflow long", `1.8e308`, 0, "overflows float64"},
		{"int above int64", `9223372036854775808`, 0, "int64"},
		{"int below int64", `[-9223372036854775809]`, 1, "int64"},
		{"int far above int64", `123456789012345678901234567890`, 0, "int64"},
		{"array too deep", deepArray, maxDepth, "nesting"},
		{"object too deep", deepObject, 5 * maxDepth, "nesting"},
		// As json.loads.
		{"control character", "\"a\x01\"", 2, "control character"},
		{"raw newline", "\"\n\"", 1, "control character"},
		{"raw tab", "[\"\t\"]", 2, "control character"},
		{"control character after escape", "\"\\n\x1f\"", 3, "control character"},
		{"bad escape", `"\x"`, 1, "escape"},
		{"short unicode escape", `"\u12"`, 1, "escape"},
		{"bad unicode escape", `"\u12G4"`, 1, "escape"},
		{"unterminated string", `"abc`, 0, "unterminated"},
		{"unterminated after escape", `["ab\"]`, 1, "unterminated"},
		{"unterminated at backslash", `"a\`, 0, "unterminated"},
		{"trailing data", `{} x`, 3, "after top-level value"},
		{"two values", `1 2`, 2, "after top-level value"},
		{"extra bracket", `[]]`, 2, "after top-level value"},
		{"empty", ``, 0, "end of input"},
		{"only whitespace", " \n\t\r", 4, "end of input"},
		{"form feed is not whitespace", "\f1", 0, "unexpected character"},
		{"no-break space is not whitespace", "\u00a01", 0, "unexpected character"},
		{"leading zero", `01`, 1, "after top-level value"},
		{"lone minus", `-`, 0, "expecting a value"},
		{"minus letter", `-a`, 0, "expecting a value"},
		{"plus", `+1`, 0, "expecting a value"},
		{"leading point", `.5`, 0, "expecting a value"},
		{"trailing point", `1.`, 1, "digit after '.'"},
		{"point then exponent", `[1.e5]`, 2, "digit after '.'"},
		{"empty exponent", `1e`, 1, "exponent"},
		{"signed empty exponent", `1e+`, 1, "exponent"},
		{"trailing comma in array", `[1,]`, 3, "expecting a value"},
		{"trailing comma in object", `{"a":1,}`, 7, "property name"},
		{"unquoted key", `{a:1}`, 1, "property name"},
		{"single quotes", `['a']`, 1, "expecting a value"},
		{"missing colon", `{"a" 1}`, 5, "':'"},
		{"missing comma", `[1 2]`, 3, "',' or ']'"},
		{"missing comma in object", `{"a":1 "b":2}`, 7, "',' or '}'"},
		{"unclosed array", `[1,2`, 4, "end of input"},
		{"unclosed object", `{"a":1`, 6, "end of input"},
		{"bad literal", `tru`, 0, "expecting a value"},
		{"capitalised literal", `True`, 0, "expecting a value"},
		{"literal with suffix", `nullx`, 4, "after top-level value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Parse([]byte(tc.in))
			require.Error(t, err)
			var se *SyntaxError
			require.True(t, errors.As(err, &se), "%T", err)
			assert.Equal(t, tc.offset, se.Offset, se.Error())
			assert.Contains(t, se.Msg, tc.msg)
			assert.True(t, strings.HasPrefix(err.Error(), "invalid JSON at offset "), err.Error())
			assert.Equal(t, Null, v.Kind())
		})
	}
}

func TestSyntaxErrorMessage(t *testing.T) {
	_, err := Parse([]byte(`{"a": 1, "b": x}`))
	require.Error(t, err)
	assert.Equal(t, `invalid JSON at offset 14: unexpected character 'x' (expecting a value)`, err.Error())
}

func TestParseAccepts(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, tc := range []struct {
		in   string
		want Value
	}{
		{`0`, IntValue(0)},
		{`-0`, IntValue(0)},
		{`-0.0`, FloatValue(negZero)},
		{`1e-400`, FloatValue(0)},
		{`-1e-400`, FloatValue(negZero)},
		{`1.7976931348623158e308`, FloatValue(math.MaxFloat64)}, // rounds down to the largest double
		{`9223372036854775807`, IntValue(math.MaxInt64)},
		{`-9223372036854775808`, IntValue(math.MinInt64)},
		{`00.5`[1:], FloatValue(0.5)},
		{`1E2`, FloatValue(100)},
		{`1e+2`, FloatValue(100)},
		{`" \u0000\u001F\u00e9"`, StringValue(" \x00\x1fé")},
		{`"\ud83d\ude00\uD83D\uDE00"`, StringValue("😀😀")},
		{"\"\x7f\u2028\"", StringValue("\x7f\u2028")},
		{`"\/\"\\\b\f\n\r\t"`, StringValue("/\"\\\b\f\n\r\t")},
		{" \t\r\n true \t\r\n ", BoolValue(true)},
		{`false`, BoolValue(false)},
		{`null`, NullValue()},
		{`[]`, ArrayValue(nil)},
		{`[]`, ArrayValue([]Value{})},
		{`{}`, ObjectValue(nil)},
		{`{}`, ObjectValue([]Member{})},
		{`[1,"a",{"b":null}]`, ArrayValue([]Value{IntValue(1), StringValue("a"), ObjectValue([]Member{{"b", NullValue()}})})},
	} {
		v, err := Parse([]byte(tc.in))
		if assert.NoError(t, err, tc.in) {
			assert.Equal(t, tc.want, v, tc.in)
		}
	}

	// Exactly maxDepth levels are fine.
	v, err := Parse([]byte(strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)))
	require.NoError(t, err)
	for range maxDepth - 1 {
		require.Len(t, v.Items(), 1)
		v = v.Items()[0]
	}
	require.Empty(t, v.Items())
}

func TestParseDoesNotAliasInput(t *testing.T) {
	data := []byte(`{"key": "value", "arr": ["x"]}`)
	v, err := Parse(data)
	require.NoError(t, err)
	for i := range data {
		data[i] = 'z'
	}
	assert.Equal(t, `{"arr":["x"],"key":"value"}`, string(Canonical(v)))
}

// TestParseNumbersMatchStrconv checks the number scanner and its exact fast
// path against strconv on many random literals.
func TestParseNumbersMatchStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	digits := func(n int, leadingNonZero bool) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		if leadingNonZero && n > 0 && b[0] == '0' {
			b[0] = byte('1' + rng.IntN(9))
		}
		return string(b)
	}
	for range 200000 {
		var sb strings.Builder
		if rng.IntN(2) == 0 {
			sb.WriteByte('-')
		}
		if rng.IntN(5) == 0 {
			sb.WriteByte('0')
		} else {
			sb.WriteString(digits(1+rng.IntN(21), true))
		}
		isFloat := false
		if rng.IntN(3) > 0 {
			isFloat = true
			sb.WriteByte('.')
			sb.WriteString(strings.Repeat("0", rng.IntN(4)*rng.IntN(2)))
			sb.WriteString(digits(1+rng.IntN(20), false))
		}
		if rng.IntN(3) == 0 {
			isFloat = true
			sb.WriteString([]string{"e", "E", "e+", "e-", "E-"}[rng.IntN(5)])
			if rng.IntN(10) == 0 {
				sb.WriteString(digits(1+rng.IntN(3), false))
			} else {
				sb.WriteString(strconv.Itoa(rng.IntN(30)))
			}
		}
		lit := sb.String()
		v, err := Parse([]byte(lit))
		if isFloat {
			want, werr := strconv.ParseFloat(lit, 64)
			if werr != nil {
				require.Error(t, err, lit)
				continue
			}
			require.NoError(t, err, lit)
			require.Equal(t, Float, v.Kind(), lit)
			got, _ := v.Float()
			require.Equal(t, math.Float64bits(want), math.Float64bits(got), lit)
		} else {
			want, werr := strconv.ParseInt(lit, 10, 64)
			if werr != nil {
				require.Error(t, err, lit)
				continue
			}
			require.NoError(t, err, lit)
			got, ok := v.Int()
			require.True(t, ok, lit)
			require.Equal(t, want, got, lit)
		}
	}
}
