package pyjson

import (
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Canonical returns json.dumps(v, sort_keys=True, separators=(",", ":"),
// ensure_ascii=False) as bytes.
func Canonical(v Value) []byte { return AppendCanonical(nil, v) }

// AppendCanonical appends json.dumps(v, sort_keys=True, separators=(",", ":"),
// ensure_ascii=False): object members sorted by key (code point order, or
// numerically for IntKeyObjectValue), no whitespace.
func AppendCanonical(dst []byte, v Value) []byte {
	if need := sizeEstimate(v, 0, 0); cap(dst)-len(dst) < need {
		dst = slices.Grow(dst, need)
	}
	var e canonicalEncoder
	return e.append(dst, v)
}

// canonicalEncoder keeps one scratch stack of member indexes for sorting, so
// that unsorted objects cost no allocation each.
type canonicalEncoder struct {
	order []int32
}

func (e *canonicalEncoder) append(dst []byte, v Value) []byte {
	switch v.Kind() {
	case Array:
		dst = append(dst, '[')
		for i, item := range v.Items() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = e.append(dst, item)
		}
		return append(dst, ']')
	case Object:
		ms := v.Members()
		cmp := strings.Compare // Python sorts strs by code point: for UTF-8, byte order
		if v.c != nil && v.c.intKeys {
			cmp = cmpIntKey
		}
		dst = append(dst, '{')
		if isSorted(ms, cmp) {
			for i := range ms {
				dst = e.appendMember(dst, i, ms[i])
			}
			return append(dst, '}')
		}
		base := len(e.order)
		for i := range ms {
			e.order = append(e.order, int32(i))
		}
		slices.SortStableFunc(e.order[base:], func(a, b int32) int { return cmp(ms[a].Key, ms[b].Key) })
		for i := range ms {
			// e.order may be reallocated by nested objects: index it afresh.
			dst = e.appendMember(dst, i, ms[e.order[base+i]])
		}
		e.order = e.order[:base]
		return append(dst, '}')
	}
	return appendScalar(dst, v)
}

func (e *canonicalEncoder) appendMember(dst []byte, i int, m Member) []byte {
	if i > 0 {
		dst = append(dst, ',')
	}
	dst = AppendString(dst, m.Key)
	dst = append(dst, ':')
	return e.append(dst, m.Value)
}

func isSorted(ms []Member, cmp func(a, b string) int) bool {
	for i := 1; i < len(ms); i++ {
		if cmp(ms[i-1].Key, ms[i].Key) > 0 {
			return false
		}
	}
	return true
}

// cmpIntKey orders decimal integer keys numerically, as Python sorts int keys.
// Keys that are not decimal integers sort after those that are, by string.
func cmpIntKey(a, b string) int {
	an, am, aok := splitInt(a)
	bn, bm, bok := splitInt(b)
	switch {
	case !aok || !bok:
		if aok != bok {
			if aok {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	case an != bn:
		if an {
			return -1
		}
		return 1
	}
	c := len(am) - len(bm)
	if c == 0 {
		c = strings.Compare(am, bm)
	}
	if an {
		return -c
	}
	return c
}

// splitInt splits a decimal integer into its sign and its magnitude without
// leading zeros ("" for zero, which is never negative).
func splitInt(s string) (neg bool, mag string, ok bool) {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return false, "", false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false, "", false
		}
	}
	mag = strings.TrimLeft(s, "0")
	return neg && mag != "", mag, true
}

// Indent returns json.dumps(v, indent=2, ensure_ascii=False) as bytes.
func Indent(v Value) []byte { return AppendIndent(nil, v) }

// AppendIndent appends json.dumps(v, indent=2, ensure_ascii=False): members
// in their order, item separator "," + newline, key separator ": ", empty
// object "{}", empty array "[]", no trailing newline (as json.dump writes).
func AppendIndent(dst []byte, v Value) []byte {
	// One allocation of about the right size instead of a doubling chain:
	// fresh memory is a large part of writing a big document.
	if need := sizeEstimate(v, 0, 2); cap(dst)-len(dst) < need {
		dst = slices.Grow(dst, need)
	}
	return appendIndent(dst, v, 0, nil)
}

// WriteIndent writes what Indent returns to w, in pieces of about 64 KiB:
// a big document (an export) is never whole in memory as bytes.
func WriteIndent(w io.Writer, v Value) error {
	f := &flusher{w: w}
	rest := appendIndent(make([]byte, 0, flushAt+4<<10), v, 0, f)
	if f.err == nil {
		_, f.err = w.Write(rest)
	}
	return f.err
}

const flushAt = 64 << 10

// A flusher writes out what appendIndent has appended once it passes
// flushAt bytes, and keeps the first write error.
type flusher struct {
	w   io.Writer
	err error
}

func (f *flusher) flush(dst []byte) []byte {
	if f == nil || len(dst) < flushAt {
		return dst
	}
	if f.err == nil {
		_, f.err = f.w.Write(dst)
	}
	return dst[:0]
}

// sizeEstimate estimates the output size of v at the given nesting level
// with indent spaces per level (0 for Canonical), erring high: floats other
// than zero count as 24 bytes, the longest repr ("-2.2250738585072014e-308").
func sizeEstimate(v Value, level, indent int) int {
	switch v.Kind() {
	case Array:
		n := 2 + indent*level
		if v.c.raw != nil { // not decoded to estimate: text plus room for indenting
			for _, doc := range v.c.raw {
				n += 2 + indent*(level+1) + 2*len(doc)
			}
			return n
		}
		for _, item := range v.Items() {
			n += 2 + indent*(level+1) + sizeEstimate(item, level+1, indent)
		}
		return n
	case Object:
		n := 2 + indent*level
		for _, m := range v.Members() {
			n += 6 + len(m.Key) + indent*(level+1) + sizeEstimate(m.Value, level+1, indent)
		}
		return n
	case String:
		return 2 + len(v.s) + len(v.s)/8 // room for a few escapes
	case Bool, Null:
		return 5
	case Int:
		return 20
	}
	if v.n<<1 == 0 { // ±0.0, common in sparse fields
		return 4
	}
	return 24
}

const spaces = "                                                                " // 64

func appendNewline(dst []byte, level int) []byte {
	dst = append(dst, '\n')
	for n := 2 * level; n > 0; {
		k := min(n, len(spaces))
		dst = append(dst, spaces[:k]...)
		n -= k
	}
	return dst
}

func appendIndent(dst []byte, v Value, level int, f *flusher) []byte {
	switch v.Kind() {
	case Array:
		n := v.arrayLen()
		if n == 0 {
			return append(dst, "[]"...)
		}
		dst = append(dst, '[')
		for i := range n {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendNewline(dst, level+1)
			dst = f.flush(appendIndent(dst, v.item(i), level+1, f))
		}
		dst = appendNewline(dst, level)
		return append(dst, ']')
	case Object:
		ms := v.Members()
		if len(ms) == 0 {
			return append(dst, "{}"...)
		}
		dst = append(dst, '{')
		for i := range ms {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendNewline(dst, level+1)
			dst = AppendString(dst, ms[i].Key)
			dst = append(dst, ':', ' ')
			dst = f.flush(appendIndent(dst, ms[i].Value, level+1, f))
		}
		dst = appendNewline(dst, level)
		return append(dst, '}')
	}
	return appendScalar(dst, v)
}

func appendScalar(dst []byte, v Value) []byte {
	switch v.Kind() {
	case Bool:
		if v.n != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Int:
		return strconv.AppendInt(dst, int64(v.n), 10)
	case Float:
		return AppendFloat(dst, math.Float64frombits(v.n))
	case String:
		return AppendString(dst, v.s)
	}
	return append(dst, "null"...)
}

// needsEscape marks the bytes json.dumps(ensure_ascii=False) escapes.
var needsEscape = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// AppendString appends s as json.dumps(s, ensure_ascii=False) writes it:
// escapes \" \\ \n \r \t \b \f, other bytes < 0x20 as \u00XX (lowercase hex,
// as Python writes), everything else (including non-ASCII and 0x7f) raw.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !needsEscape[c] {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendStrings appends a compact JSON list of strings.
func AppendStrings(dst []byte, xs []string) []byte {
	dst = append(dst, '[')
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, x)
	}
	return append(dst, ']')
}
