package torusfield

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// The expected values of the formula tests live in testdata/formulas. They
// were computed once with the Python reference by testdata/formulas/gen.py,
// with every float stored as float.hex(), which is exact: the tests compare
// bit for bit and never need python3.
const formulasDir = "testdata/formulas"

func loadFormulas(t testing.TB, name string, into any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(formulasDir, name))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, into))
}

// hexf is a float64 written by Python's float.hex() ("0x1.8p+1", "inf") or
// "nan".
type hexf float64

func (h *hexf) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "nan" {
		*h = hexf(math.NaN())
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	*h = hexf(f)
	return nil
}

func floatsOf(hs []hexf) []float64 {
	out := make([]float64, len(hs))
	for i, h := range hs {
		out[i] = float64(h)
	}
	return out
}

// pair is a [key, float.hex()] pair: how the generator writes a Python
// dict whose order matters.
type pair[K any] struct {
	Key K
	Val float64
}

func (p *pair[K]) UnmarshalJSON(b []byte) error {
	var raw [2]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	var v hexf
	if err := json.Unmarshal(raw[1], &v); err != nil {
		return err
	}
	p.Val = float64(v)
	return json.Unmarshal(raw[0], &p.Key)
}

// sameBits reports whether two floats are the same float64, bit for bit
// (so 0.0 and -0.0 differ and NaN equals the same NaN).
func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// requireBits fails unless got is want bit for bit.
func requireBits(t testing.TB, want, got float64, what string, args ...any) {
	t.Helper()
	if !sameBits(want, got) {
		require.Failf(t, "float mismatch", "%s: got %v (%x), want %v (%x)",
			fmt.Sprintf(what, args...), got, got, want, want)
	}
}

// requireAllBits compares two float slices bit for bit.
func requireAllBits(t testing.TB, want, got []float64, what string, args ...any) {
	t.Helper()
	require.Lenf(t, got, len(want), what, args...)
	for i := range want {
		requireBits(t, want[i], got[i], "%s[%d]", fmt.Sprintf(what, args...), i)
	}
}
