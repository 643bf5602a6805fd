package pyjson

import (
	"math"
	"math/big"
	"strconv"
)

// FormatFloat returns Python's repr(f) as json.dumps writes it (see AppendFloat).
func FormatFloat(f float64) string { return string(AppendFloat(nil, f)) }

// AppendFloat appends Python's repr(float): shortest round-trip digits; fixed
// notation with at least one digit after the point ("1.0", "0.0001", "-0.0")
// when the decimal exponent is in Python's fixed range, else scientific with
// a sign and at least two exponent digits ("1e-05", "1.5e+16"); NaN -> "NaN",
// +Inf -> "Infinity", -Inf -> "-Infinity" (as json.dumps writes them).
//
// With the shortest digits d1...dk and value = 0.d1...dk × 10^decpt, Python
// writes fixed notation when -4 < decpt <= 16, else scientific
// (float_repr_style "short", Python/pystrtod.c).
func AppendFloat(dst []byte, f float64) []byte {
	a := math.Abs(f)
	switch {
	case f != f:
		return append(dst, "NaN"...)
	case a > math.MaxFloat64:
		if f > 0 {
			return append(dst, "Infinity"...)
		}
		return append(dst, "-Infinity"...)
	case a < 1e-4 && a != 0, a >= 1e16:
		// Scientific: Go's shortest 'e' form is Python's ("1e-05",
		// "1.5e+16", "5e-324", "1e+100").
		return strconv.AppendFloat(dst, f, 'e', -1, 64)
	}
	// Fixed: -4 < decpt <= 16 exactly when 1e-4 <= |f| < 1e16 (or f is
	// zero): 1e16 is a float64 and float64(1e-4) prints as 0.0001, so no
	// float on the other side of a bound has shortest digits on this side.
	// Go's shortest 'f' form has the same digits; Python adds ".0" to an
	// integral value.
	n := len(dst)
	dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
	for _, c := range dst[n:] {
		if c == '.' {
			return dst
		}
	}
	return append(dst, '.', '0')
}

// Python's limits for round(x, ndigits) (Objects/floatobject.c): beyond
// them the result is x itself or a zero of x's sign.
const (
	roundNdigitsMax = 323  // (DBL_MANT_DIG - DBL_MIN_EXP) * 0.30103
	roundNdigitsMin = -308 // -(DBL_MAX_EXP + 1) * 0.30103
)

// Round returns Python's round(x, ndigits): the exact binary value of x
// rounded correctly to ndigits decimals, ties to even, as a float64 (so
// Round(2.675, 2) is 2.67, because 2.675 is stored as 2.67499999...).
// NaN and ±Inf are returned unchanged, and the sign of zero is kept
// (Round(-0.00001, 2) is -0.0). Negative ndigits round to tens, hundreds, ...
// as Python does; where Python raises OverflowError (Round(1.7e308, -308))
// Round returns the infinity of x's sign.
func Round(x float64, ndigits int) float64 {
	switch {
	case x != x || math.IsInf(x, 0) || ndigits > roundNdigitsMax:
		return x
	case ndigits < roundNdigitsMin:
		return 0.0 * x
	case ndigits < 0:
		return roundNegative(x, ndigits)
	}
	// 'f' formatting with a precision rounds the exact value half to even,
	// and ParseFloat rounds the decimal back correctly, as _Py_dg_dtoa and
	// _Py_dg_strtod do.
	var buf [64]byte
	r, err := strconv.ParseFloat(string(strconv.AppendFloat(buf[:0], x, 'f', ndigits, 64)), 64)
	if err != nil { // cannot happen: the text is a finite number's
		return x
	}
	return r
}

// roundNegative rounds x to a multiple of 10^-ndigits (ndigits < 0), ties
// to even, exactly.
func roundNegative(x float64, ndigits int) float64 {
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-ndigits)), nil)
	q := new(big.Rat).SetFloat64(x)
	q.Quo(q, new(big.Rat).SetInt(unit))
	// Round q to the nearest integer, ties to even.
	n, rem := new(big.Int).QuoRem(q.Num(), q.Denom(), new(big.Int))
	twice := new(big.Int).Abs(rem)
	twice.Lsh(twice, 1)
	if c := twice.Cmp(q.Denom()); c > 0 || (c == 0 && n.Bit(0) == 1) {
		if rem.Sign() < 0 {
			n.Sub(n, big.NewInt(1))
		} else {
			n.Add(n, big.NewInt(1))
		}
	}
	if n.Sign() == 0 {
		return 0.0 * x // keeps the sign of x, as Python's "-0e+N" does
	}
	r, _ := new(big.Rat).SetInt(n.Mul(n, unit)).Float64()
	return r // ±Inf where Python raises OverflowError
}
