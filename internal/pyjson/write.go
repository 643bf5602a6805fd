package pyjson

import (
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
	switch v.kind {
	case Array:
		dst = append(dst, '[')
		for i := range v.items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendCanonical(dst, v.items[i])
		}
		return append(dst, ']')
	case Object:
		members := sortedMembers(v)
		dst = append(dst, '{')
		for i := range members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, members[i].Key)
			dst = append(dst, ':')
			dst = AppendCanonical(dst, members[i].Value)
		}
		return append(dst, '}')
	}
	return appendScalar(dst, v)
}

// sortedMembers returns v's members in sort_keys order, without copying when
// they are sorted already.
func sortedMembers(v Value) []Member {
	cmp := cmpStringKey
	if v.intKeys {
		cmp = cmpIntKey
	}
	ms := v.members
	for i := 1; i < len(ms); i++ {
		if cmp(ms[i-1], ms[i]) > 0 {
			sorted := slices.Clone(ms)
			slices.SortStableFunc(sorted, cmp)
			return sorted
		}
	}
	return ms
}

// cmpStringKey orders keys as Python orders strs: by code point, which for
// UTF-8 is byte order.
func cmpStringKey(a, b Member) int { return strings.Compare(a.Key, b.Key) }

// cmpIntKey orders decimal integer keys numerically, as Python sorts int keys.
// Keys that are not decimal integers sort after those that are, by string.
func cmpIntKey(a, b Member) int {
	an, am, aok := splitInt(a.Key)
	bn, bm, bok := splitInt(b.Key)
	switch {
	case !aok || !bok:
		if aok != bok {
			if aok {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Key, b.Key)
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
func AppendIndent(dst []byte, v Value) []byte { return appendIndent(dst, v, 0) }

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

func appendIndent(dst []byte, v Value, level int) []byte {
	switch v.kind {
	case Array:
		if len(v.items) == 0 {
			return append(dst, "[]"...)
		}
		dst = append(dst, '[')
		for i := range v.items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendNewline(dst, level+1)
			dst = appendIndent(dst, v.items[i], level+1)
		}
		dst = appendNewline(dst, level)
		return append(dst, ']')
	case Object:
		if len(v.members) == 0 {
			return append(dst, "{}"...)
		}
		dst = append(dst, '{')
		for i := range v.members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendNewline(dst, level+1)
			dst = AppendString(dst, v.members[i].Key)
			dst = append(dst, ':', ' ')
			dst = appendIndent(dst, v.members[i].Value, level+1)
		}
		dst = appendNewline(dst, level)
		return append(dst, '}')
	}
	return appendScalar(dst, v)
}

func appendScalar(dst []byte, v Value) []byte {
	switch v.kind {
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
