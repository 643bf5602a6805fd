package pyjson

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
)

// A Number is a JSON number literal as Parse reads it.
type Number struct {
	Float float64 // the value as Value.Float returns it
	Int   int64   // the value of an int literal
	IsInt bool    // no '.', 'e' or 'E': Python's int
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ScanNumber reads the number literal
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? at src[*pos:], as Parse
// does (Parse calls it), and moves *pos just after it. A literal
// that breaks the grammar, an int outside int64 and a float that overflows
// float64 are a *SyntaxError at the offset Parse reports; a float that
// underflows is 0.0 or -0.0. Both Parse and the engine's state decoder
// (which reads the numbers of a state file in place) read numbers here.
//
// A float is converted correctly rounded, by the fastest of three ways
// that applies: exactFloat when digits and power of ten are exact float64s,
// divPow10 for a decimal of up to 19 digits (a state's numbers have 17),
// else strconv.ParseFloat. All three round correctly, so they agree.
func ScanNumber(src []byte, pos *int) (Number, error) {
	i := *pos
	if len(src)-i > 3 && string(src[i:i+3]) == "0.0" && !isDigit(src[i+3]) && src[i+3]|0x20 != 'e' {
		*pos = i + 3
		return Number{}, nil // most cells of a state's sparse fields
	}
	start := i
	neg := i < len(src) && src[i] == '-'
	if neg {
		i++
	}
	if i >= len(src) || !isDigit(src[i]) {
		return Number{}, unexpectedAt(src, start, "(expecting a value)")
	}
	// mant holds the first 19 significant digits, for ints and for the
	// fast conversions; ndigits counts them all (mant wraps past 19).
	var mant uint64
	ndigits, exp10 := 0, 0
	if src[i] == '0' {
		i++
	} else {
		mant, ndigits = digits(src[i:], 0)
		i += ndigits
	}
	isFloat := false
	if i < len(src) && src[i] == '.' {
		isFloat = true
		i++
		if i >= len(src) || !isDigit(src[i]) {
			return Number{}, &SyntaxError{Offset: int64(i - 1), Msg: "invalid number: no digit after '.'"}
		}
		for mant == 0 && i < len(src) && src[i] == '0' {
			i++
			exp10-- // leading zeros are not significant
		}
		var n int
		mant, n = digits(src[i:], mant)
		i += n
		ndigits += n
		exp10 -= n
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		isFloat = true
		ePos := i
		i++
		eneg := false
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			eneg = src[i] == '-'
			i++
		}
		if i >= len(src) || !isDigit(src[i]) {
			return Number{}, &SyntaxError{Offset: int64(ePos), Msg: "invalid number: no digit in the exponent"}
		}
		e := 0
		for ; i < len(src) && isDigit(src[i]); i++ {
			if e < 100000 {
				e = e*10 + int(src[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp10 += e
	}
	if !isFloat {
		// 9223372036854775808 has 19 digits; more never fit.
		if ndigits > 19 || mant > 1<<63 || (!neg && mant == 1<<63) {
			return Number{}, &SyntaxError{Offset: int64(start), Msg: "integer " + string(src[start:i]) + " is outside the int64 range"}
		}
		if neg {
			mant = -mant
		}
		v := int64(mant)
		*pos = i
		return Number{Float: float64(v), Int: v, IsInt: true}, nil
	}
	f, ok := exactFloat(mant, ndigits, exp10)
	if !ok && mant != 0 && ndigits <= 19 && exp10 < 0 && exp10 >= -19 {
		f, ok = divPow10(mant, -exp10), true
	}
	if ok {
		if neg {
			f = -f
		}
		*pos = i
		return Number{Float: f}, nil
	}
	f, err := strconv.ParseFloat(string(src[start:i]), 64) // no allocation
	if err != nil || math.IsInf(f, 0) {
		return Number{}, &SyntaxError{Offset: int64(start), Msg: "number " + string(src[start:i]) + " overflows float64"}
	}
	*pos = i
	return Number{Float: f}, nil
}

// digits appends the decimal digits that b starts with to mant and
// returns it with their count. mant wraps past 19 digits (the count
// tells). It takes eight digits at a time where it can: a state's numbers
// have about 17.
func digits(b []byte, mant uint64) (uint64, int) {
	i := 0
	for ; len(b)-i >= 8; i += 8 {
		v := binary.LittleEndian.Uint64(b[i:])
		if !eightDigits(v) {
			break
		}
		mant = mant*1e8 + eightDigitsValue(v)
	}
	for ; i < len(b) && isDigit(b[i]); i++ {
		mant = mant*10 + uint64(b[i]-'0')
	}
	return mant, i
}

// eightDigits reports whether the eight bytes of v (little-endian) are all
// ASCII digits: adding 0x46 carries into bit 7 for bytes above '9', and
// subtracting 0x30 borrows into it for bytes below '0'.
func eightDigits(v uint64) bool {
	return ((v+0x4646464646464646)|(v-0x3030303030303030))&0x8080808080808080 == 0
}

// eightDigitsValue converts eight ASCII digits, the first in the low byte,
// to their value: adjacent digits are combined pairwise into 2-digit, then
// 4-digit, then the 8-digit number (the multiplications put each pair's
// sum in the upper half of the product).
func eightDigitsValue(v uint64) uint64 {
	const mask = 0x000000FF000000FF
	const mul1 = 100 + 1000000<<32
	const mul2 = 1 + 10000<<32
	v -= 0x3030303030303030
	v = v*10 + v>>8
	return ((v&mask)*mul1 + (v>>16&mask)*mul2) >> 32
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// exactFloat is Clinger's fast path: when the decimal mant×10^exp10 (mant
// of ndigits digits) has digits and a power of ten that are both exact
// float64s, one IEEE multiplication or division rounds correctly, as
// strconv.ParseFloat would. ok is false when the fast path does not apply.
func exactFloat(mant uint64, ndigits, exp10 int) (float64, bool) {
	if ndigits > 19 || mant > 1<<53 || exp10 < -22 || exp10 > 22 {
		return 0, false
	}
	f := float64(mant)
	if exp10 < 0 {
		return f / pow10[-exp10], true
	}
	return f * pow10[exp10], true
}

// pow10u64 holds the powers of ten that fit in a uint64.
var pow10u64 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// divPow10 returns mant / 10^k rounded correctly to a float64, for
// 0 < mant < 2^64 and 1 <= k <= 19: the shape of a state's numbers
// (17 significant digits, a point, no exponent), which are too long for
// exactFloat. ParseFloat would give the same float, since both round
// correctly, but it scans the digits again and takes three times as long.
//
// The integer division of mant·2^s by 10^k, with s chosen so that the
// quotient q has 63 or 64 bits, is exact but for its remainder; rounding q
// to 53 bits, half to even, with a nonzero remainder counting as a bit below
// the half, is then the correct rounding of mant / 10^k = (q + r/10^k)·2^-s.
// The result is at least 10^-19, far from subnormal, so Ldexp is exact.
func divPow10(mant uint64, k int) float64 {
	d := pow10u64[k]
	s := uint(63 - bits.Len64(mant) + bits.Len64(d)) // q = mant·2^s / d is in [2^62, 2^64)
	var hi, lo uint64
	if s >= 64 {
		hi = mant << (s - 64)
	} else {
		hi, lo = mant>>(64-s), mant<<s
	}
	q, r := bits.Div64(hi, lo, d) // hi < d since the quotient fits in 64 bits
	shift := uint(bits.Len64(q) - 53)
	m := q >> shift
	rest, half := q&(1<<shift-1), uint64(1)<<(shift-1)
	if rest > half || (rest == half && (r != 0 || m&1 == 1)) {
		m++ // may reach 2^53, which float64 holds exactly
	}
	return math.Ldexp(float64(m), int(shift)-int(s))
}
