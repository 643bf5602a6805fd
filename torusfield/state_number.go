package torusfield

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// jsonNumber is a JSON number as pyjson.Parse reads it.
type jsonNumber struct {
	f     float64 // the value as Value.Float returns it
	i     int64   // the value of an int literal
	isInt bool    // no '.', 'e' or 'E': Python's int
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?. Integers
// of 19 digits or more are left to the slow path, which decides whether
// they fit in an int64. A float is converted to the float64 Parse makes of
// it: by pyjson.ExactFloat when digits and power of ten are exact float64s (as
// Parse does), else by divPow10 for plain decimals of up to 19 digits,
// else by strconv.ParseFloat (as Parse does). All three round correctly,
// so they agree.
func (s *scanner) number() (jsonNumber, bool) {
	src, i := s.src, s.pos
	if len(src)-i > 3 && string(src[i:i+3]) == "0.0" && !isDigit(src[i+3]) && src[i+3]|0x20 != 'e' {
		s.pos += 3 // most cells of a sparse field
		return jsonNumber{}, true
	}
	start := i
	neg := i < len(src) && src[i] == '-'
	if neg {
		i++
	}
	if i >= len(src) || !isDigit(src[i]) {
		return jsonNumber{}, false
	}
	var mant uint64 // the first 19 significant digits; ndigits counts all
	ndigits, exp10 := 0, 0
	if src[i] == '0' {
		i++
	} else {
		var n int
		mant, n = digits(src[i:], 0)
		i += n
		ndigits = n
	}
	isFloat := false
	if i < len(src) && src[i] == '.' {
		isFloat = true
		i++
		if i >= len(src) || !isDigit(src[i]) {
			return jsonNumber{}, false
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
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i >= len(src) || !isDigit(src[i]) {
			return jsonNumber{}, false
		}
		for ; i < len(src) && isDigit(src[i]); i++ {
		}
		exp10 = math.MaxInt32 // the exponent's value is left to ParseFloat
	}
	s.pos = i
	if !isFloat {
		if ndigits > 18 {
			return jsonNumber{}, false
		}
		v := int64(mant)
		if neg {
			v = -v
		}
		return jsonNumber{f: float64(v), i: v, isInt: true}, true
	}
	f, ok := pyjson.ExactFloat(mant, ndigits, exp10)
	if !ok && mant != 0 && ndigits <= 19 && exp10 < 0 && exp10 >= -19 {
		f, ok = divPow10(mant, -exp10), true
	}
	if ok {
		if neg {
			f = -f
		}
		return jsonNumber{f: f}, true
	}
	f, err := strconv.ParseFloat(string(src[start:i]), 64)
	if err != nil || math.IsInf(f, 0) {
		return jsonNumber{}, false // Parse rejects floats that overflow
	}
	return jsonNumber{f: f}, true
}

// digits appends the decimal digits that b starts with to mant and
// returns it with their count. Like the digit-by-digit loop of
// pyjson.Parse, mant wraps past 19 digits (the count tells), and it takes
// eight digits at a time where it can: the state's numbers have about 17.
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

// pow10u64 holds the powers of ten that fit in a uint64.
var pow10u64 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// divPow10 returns mant / 10^k rounded correctly to a float64, for
// 0 < mant < 2^64 and 1 <= k <= 19: the shape of the state's numbers
// (17 significant digits, a point, no exponent), which are too long for
// pyjson.ExactFloat. ParseFloat would give the same float, since both round
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

// float scans a number, int or float, as the float64 Value.Float returns.
func (s *scanner) float() (float64, bool) {
	n, ok := s.number()
	return n.f, ok
}

// integer scans an int literal (Restore's getInt refuses floats).
func (s *scanner) integer() (int, bool) {
	n, ok := s.number()
	return int(n.i), ok && n.isInt
}

// skipNumber checks a number as number does without converting it, which
// the engine's skipped members (edges' u, c, n; the schedule) do not need:
// without an exponent, a float of up to 300 integer digits cannot overflow
// float64, and an int of up to 18 digits fits in an int64.
func (s *scanner) skipNumber() bool {
	src, i := s.src, s.pos
	if i < len(src) && src[i] == '-' {
		i++
	}
	if i >= len(src) || !isDigit(src[i]) {
		return false
	}
	intStart := i
	if src[i] == '0' {
		i++
	} else {
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	intDigits := i - intStart
	isFloat := i < len(src) && src[i] == '.'
	if isFloat {
		i++
		if i >= len(src) || !isDigit(src[i]) {
			return false
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		_, ok := s.number() // the exponent decides: convert it
		return ok
	}
	if intDigits > 300 || (!isFloat && intDigits > 18) {
		return false
	}
	s.pos = i
	return true
}
