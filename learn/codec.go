package learn

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/quickjson"
)

// AppendJSON appends the model's state as one compact JSON object:
//
//	{"buckets":B,"clock":N,"weights":"BASE64","pairs":[[from,to,S,N,last,discovered],...]}
//
// weights is the base64 of one 44-byte little-endian record per weight,
// sorted by bucket: bucket (uint32), M, V, S, N (float64 bits), T (int64).
// Binary, because every call of a v3 workspace reads and writes it whole:
// a third of the JSON's size, and decoded without parsing numbers (about
// 1.5 ms saved per call at 1,000 weights). Pairs are sorted by (from, to),
// their numbers in Go's shortest round-tripping form. The same model always
// gives the same bytes, and Decode gives back the same model. Its size is
// bounded by the bucket count and by the number of transitions used.
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
	dst = append(dst, `,"weights":"`...)
	rec := make([]byte, 0, len(bs)*weightRecord)
	for _, b := range bs {
		w := m.weights[b]
		rec = binary.LittleEndian.AppendUint32(rec, b)
		for _, x := range [...]float64{w.M, w.V, w.S, w.N} {
			rec = binary.LittleEndian.AppendUint64(rec, math.Float64bits(x))
		}
		rec = binary.LittleEndian.AppendUint64(rec, uint64(w.T))
	}
	dst = base64.StdEncoding.AppendEncode(dst, rec)
	dst = append(dst, `","pairs":[`...)
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

// weightRecord is the size of one weight in the encoded state.
const weightRecord = 44

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
	if b := quickjson.Member(doc, "buckets"); b.Exists() {
		n := uint64(b.Num)
		if b.Type != gjson.Number || b.Num != float64(n) || n < LegacyBuckets || n > 1<<20 || n&(n-1) != 0 {
			return nil, errors.New("learn: buckets must be a power of two from 4096 to 1048576")
		}
		m.buckets = uint32(n)
	}
	if c := quickjson.Member(doc, "clock"); c.Type != gjson.Number || c.Num != math.Trunc(c.Num) || c.Num < 0 {
		return nil, errors.New("learn: clock must be a non-negative integer")
	} else {
		m.Clock = c.Int()
	}
	wv := quickjson.Member(doc, "weights")
	if wv.Type != gjson.String {
		return nil, errors.New("learn: weights must be a base64 string")
	}
	rec, derr := base64.StdEncoding.AppendDecode(nil, []byte(wv.Str))
	if derr != nil || len(rec)%weightRecord != 0 {
		return nil, errors.New("learn: weights must be base64 of 44-byte records")
	}
	prev := int64(-1)
	for i := 0; len(rec) > 0; i, rec = i+1, rec[weightRecord:] {
		b := binary.LittleEndian.Uint32(rec)
		var x [4]float64
		for j := range x {
			x[j] = math.Float64frombits(binary.LittleEndian.Uint64(rec[4+8*j:]))
			if math.IsInf(x[j], 0) || math.IsNaN(x[j]) {
				return nil, fmt.Errorf("learn: weights[%d]: a number is not finite", i)
			}
		}
		t := int64(binary.LittleEndian.Uint64(rec[36:]))
		switch {
		case b >= m.buckets:
			return nil, fmt.Errorf("learn: weights[%d]: bucket must be below %d", i, m.buckets)
		case int64(b) <= prev:
			return nil, fmt.Errorf("learn: weights[%d]: buckets must be sorted, each once", i)
		case t < 0 || t > m.Clock:
			return nil, fmt.Errorf("learn: weights[%d]: T must be from 0 to the clock", i)
		case x[1] <= 0 || x[3] < 0 || x[2] < 0 || x[2] > x[3]+1e-9:
			return nil, fmt.Errorf("learn: weights[%d]: V must be positive and 0 ≤ S ≤ N", i)
		}
		prev = int64(b)
		m.weights[b] = &Weight{M: x[0], V: x[1], S: x[2], N: x[3], T: t}
	}
	var err error
	fail := func(format string, args ...any) bool {
		err = fmt.Errorf("learn: "+format, args...)
		return false
	}
	quickjson.Member(doc, "pairs").ForEach(func(i, r gjson.Result) bool {
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
