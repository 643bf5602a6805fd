package pyjson

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDivPow10 checks divPow10 against strconv.ParseFloat where rounding is
// hardest: quotients just around a half-way point between two floats.
func TestDivPow10(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 1000000 {
		k := 1 + rng.IntN(19)
		mant := rng.Uint64()
		switch rng.IntN(3) {
		case 0:
			mant >>= rng.IntN(64)
		case 1:
			// Around a tie: the decimals next to the midpoint between a
			// float and the next, which are exactly the midpoint when it
			// is a multiple of 10^-k (floats of 2^53 and more).
			f := math.Float64frombits(rng.Uint64N(0x43e0000000000000-0x3c00000000000000) + 0x3c00000000000000)
			mid := new(big.Float).SetPrec(300).Add(big.NewFloat(f), big.NewFloat(math.Nextafter(f, math.Inf(1))))
			mid.Quo(mid, big.NewFloat(2))
			d, _ := mid.Mul(mid, new(big.Float).SetPrec(300).SetUint64(pow10u64[k])).Uint64()
			mant = d + uint64(rng.IntN(3)) - 1
		}
		if mant == 0 {
			continue
		}
		dec := strconv.FormatUint(mant, 10)
		for len(dec) <= k {
			dec = "0" + dec
		}
		tok := dec[:len(dec)-k] + "." + dec[len(dec)-k:]
		want, err := strconv.ParseFloat(tok, 64)
		require.NoError(t, err)
		require.Equal(t, want, divPow10(mant, k), "%d / 10^%d (%s)", mant, k, tok)
	}
}

// TestEightDigits checks the eight-at-a-time digit test and conversion
// against the obvious loop, on bytes around '0' and '9' and anywhere.
func TestEightDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	alphabet := []byte("0123456789/:.-eE \x00\x7f\x80\xb0\xb9\xff")
	var b [8]byte
	for range 1000000 {
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = byte(rng.Uint32())
			} else if rng.IntN(3) == 0 {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				b[i] = byte('0' + rng.IntN(10))
			}
		}
		want, all := uint64(0), true
		for _, c := range b {
			all = all && isDigit(c)
			want = want*10 + uint64(c-'0')
		}
		v := binary.LittleEndian.Uint64(b[:])
		require.Equal(t, all, eightDigits(v), "%q", b)
		if all {
			require.Equal(t, want, eightDigitsValue(v), "%q", b)
		}
	}
}
