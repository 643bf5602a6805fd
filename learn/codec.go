package learn

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// AppendJSON appends the model's state as one compact JSON object:
//
//	{"buckets":B,"clock":N,"weights":[[bucket,M,V,S,N,T],...],"pairs":[[from,to,S,N,last,discovered],...]}
//
// weights sorted by bucket and pairs by (from, to), numbers in Go's
// shortest round-tripping form: the same model always gives the same
// bytes, and Decode gives back the same model. Its size is bounded by
// Buckets and by the number of transitions used.
func (m *Model) AppendJSON(dst []byte) []byte {
	bs := make([]uint32, 0, len(m.weights))
	for b := range m.weights {
		bs = append(bs, b)
	}
	slices.Sort(bs)
	dst = append(dst, `{"buckets":`...)
	dst = strconv.AppendUint(dst, uint64(m.buckets), 10)
	dst = append(dst, `,"clock":`...)
	dst = strconv.AppendInt(dst, m.Clock, 10)
	dst = append(dst, `,"weights":[`...)
	for i, b := range bs {
		w := m.weights[b]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		dst = strconv.AppendUint(dst, uint64(b), 10)
		for _, x := range [...]float64{w.M, w.V, w.S, w.N} {
			dst = append(dst, ',')
			dst = appendFloat(dst, x)
		}
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, w.T, 10)
		dst = append(dst, ']')
	}
	dst = append(dst, `],"pairs":[`...)
	keys := make([][2]string, 0, len(m.pairs))
	for k := range m.pairs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	for i, k := range keys {
		p := m.pairs[k]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		dst = pyjson.AppendString(dst, p.From)
		dst = append(dst, ',')
		dst = pyjson.AppendString(dst, p.To)
		dst = append(dst, ',')
		dst = appendFloat(dst, p.S)
		dst = append(dst, ',')
		dst = appendFloat(dst, p.N)
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, p.Last, 10)
		dst = append(dst, ',')
		dst = strconv.AppendBool(dst, p.Discovered)
		dst = append(dst, ']')
	}
	return append(dst, "]}"...)
}

func appendFloat(dst []byte, x float64) []byte {
	if x == 0 {
		return append(dst, '0') // never "-0"
	}
	return strconv.AppendFloat(dst, x, 'g', -1, 64)
}

// Decode reads a model's state written by AppendJSON into a new model with
// the given parameters. It refuses anything else with an error that names
// the member: a state file is input like any other.
func Decode(data []byte, p Params) (*Model, error) {
	if !gjson.ValidBytes(data) {
		return nil, errors.New("learn: not valid JSON")
	}
	m := New(p)
	doc := gjson.ParseBytes(data)
	if !doc.IsObject() {
		return nil, errors.New("learn: not an object")
	}
	m.buckets = LegacyBuckets
	if b := doc.Get("buckets"); b.Exists() {
		n := uint64(b.Num)
		if b.Type != gjson.Number || b.Num != float64(n) || n < LegacyBuckets || n > 1<<20 || n&(n-1) != 0 {
			return nil, errors.New("learn: buckets must be a power of two from 4096 to 1048576")
		}
		m.buckets = uint32(n)
	}
	if c := doc.Get("clock"); c.Type != gjson.Number || c.Num != math.Trunc(c.Num) || c.Num < 0 {
		return nil, errors.New("learn: clock must be a non-negative integer")
	} else {
		m.Clock = c.Int()
	}
	var err error
	fail := func(format string, args ...any) bool {
		err = fmt.Errorf("learn: "+format, args...)
		return false
	}
	doc.Get("weights").ForEach(func(i, w gjson.Result) bool {
		a := w.Array()
		if len(a) != 6 {
			return fail("weights[%d]: want [bucket, M, V, S, N, T]", i.Int())
		}
		if t := a[5]; t.Type != gjson.Number || t.Num != math.Trunc(t.Num) || t.Num < 0 || t.Int() > m.Clock {
			return fail("weights[%d]: T must be an integer from 0 to the clock", i.Int())
		}
		b := a[0]
		if b.Type != gjson.Number || b.Num != math.Trunc(b.Num) || b.Num < 0 || b.Num >= float64(m.buckets) {
			return fail("weights[%d]: bucket must be an integer below %d", i.Int(), m.buckets)
		}
		if _, dup := m.weights[uint32(b.Num)]; dup {
			return fail("weights[%d]: bucket %d twice", i.Int(), int(b.Num))
		}
		var x [4]float64
		for j := range x {
			if a[j+1].Type != gjson.Number || math.IsInf(a[j+1].Num, 0) || math.IsNaN(a[j+1].Num) {
				return fail("weights[%d][%d]: want a finite number", i.Int(), j+1)
			}
			x[j] = a[j+1].Num
		}
		if x[1] <= 0 || x[3] < 0 || x[2] < 0 || x[2] > x[3]+1e-9 {
			return fail("weights[%d]: V must be positive and 0 ≤ S ≤ N", i.Int())
		}
		m.weights[uint32(b.Num)] = &Weight{M: x[0], V: x[1], S: x[2], N: x[3], T: a[5].Int()}
		return true
	})
	if err != nil {
		return nil, err
	}
	doc.Get("pairs").ForEach(func(i, r gjson.Result) bool {
		a := r.Array()
		if len(a) != 6 || a[0].Type != gjson.String || a[1].Type != gjson.String || a[2].Type != gjson.Number ||
			a[3].Type != gjson.Number || a[4].Type != gjson.Number || !a[5].IsBool() {
			return fail("pairs[%d]: want [from, to, S, N, last, discovered]", i.Int())
		}
		if a[2].Num < 0 || a[3].Num < 0 || a[2].Num > a[3].Num+1e-9 {
			return fail("pairs[%d]: want 0 ≤ S ≤ N", i.Int())
		}
		k := [2]string{a[0].Str, a[1].Str}
		if _, dup := m.pairs[k]; dup {
			return fail("pairs[%d]: %s → %s twice", i.Int(), k[0], k[1])
		}
		m.pairs[k] = &Pair{From: k[0], To: k[1], S: a[2].Num, N: a[3].Num, Last: a[4].Int(), Discovered: a[5].Bool()}
		return true
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}
