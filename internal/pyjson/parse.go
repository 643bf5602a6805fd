package pyjson

import (
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf8"
)

// maxDepth is the deepest nesting of arrays and objects Parse accepts.
const maxDepth = 1000

// SyntaxError describes why Parse rejected a document and where: Offset is
// the byte offset of the offending input (len(data) for an unexpected end).
type SyntaxError struct {
	Offset int64
	Msg    string
}

func (e *SyntaxError) Error() string {
	return "invalid JSON at offset " + strconv.FormatInt(e.Offset, 10) + ": " + e.Msg
}

// Parse parses one JSON document strictly, as json.loads would, with these
// differences that make it stricter: NaN, Infinity, -Infinity are rejected;
// invalid UTF-8 is rejected (json.loads of bytes would decode UTF-16 and
// UTF-32 too, and skip a UTF-8 byte order mark: here a BOM is an unexpected
// character); lone surrogate escapes (\ud800 without a low surrogate, or a
// low surrogate alone) are rejected; numbers that overflow float64 (1e400)
// are rejected; integer literals outside int64 are rejected; nesting deeper
// than 1000 arrays and objects is rejected.
//
// Like json.loads: raw control characters (< 0x20) inside strings are
// rejected; whitespace is space, \t, \n, \r; trailing non-whitespace is an
// error; numbers follow the JSON grammar (no leading zeros, '+', '.5' or
// '1.'); a literal with '.', 'e' or 'E' is a float, else an int; floats that
// underflow become 0.0 or -0.0. Duplicate keys in one object behave as a
// Python dict: the member keeps the position of the first occurrence and the
// value of the last.
//
// Errors are *SyntaxError with the byte offset, like encoding/json; where
// json.loads also fails, the offset is mostly the one it reports (an escape
// error points at its backslash). The returned Value does not retain data.
func Parse(data []byte) (Value, error) {
	if !utf8.Valid(data) {
		return Value{}, &SyntaxError{Offset: int64(invalidUTF8Offset(data)), Msg: "invalid UTF-8"}
	}
	p := parser{src: data}
	p.skipWS()
	v, err := p.value()
	if err != nil {
		return Value{}, err
	}
	p.skipWS()
	if p.pos < len(p.src) {
		return Value{}, p.unexpected(p.pos, "after top-level value")
	}
	return v, nil
}

func invalidUTF8Offset(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(data)
}

type parser struct {
	src   []byte // read only during Parse, never retained
	pos   int
	depth int
	vals  []Value  // scratch stack of array elements being parsed
	mems  []Member // scratch stack of object members being parsed
	buf   []byte   // scratch for strings with escapes
	// strs interns short strings: documents repeat their keys and many
	// values, and one small allocation per distinct string beats both
	// one per string and a copy of the whole document.
	strs [256]string
}

func (p *parser) errAt(off int, msg string) error {
	return &SyntaxError{Offset: int64(off), Msg: msg}
}

// unexpected reports the character at off (or the end of input) with context.
func (p *parser) unexpected(off int, context string) error { return unexpectedAt(p.src, off, context) }

func unexpectedAt(src []byte, off int, context string) error {
	if off >= len(src) {
		return &SyntaxError{Offset: int64(len(src)), Msg: "unexpected end of input " + context}
	}
	r, _ := utf8.DecodeRune(src[off:])
	return &SyntaxError{Offset: int64(off), Msg: "unexpected character " + strconv.QuoteRune(r) + " " + context}
}

func (p *parser) skipWS() {
	s, i := p.src, p.pos
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\r':
			i++
			continue
		case '\n':
			// Indented documents put runs of spaces after each newline.
			i++
			for len(s)-i >= 8 && binary.LittleEndian.Uint64(s[i:]) == 0x2020202020202020 {
				i += 8
			}
			continue
		}
		break
	}
	p.pos = i
}

// intern returns b as a string, reusing an earlier equal string if the
// cache holds one.
func (p *parser) intern(b []byte) string {
	if len(b) > 32 {
		return string(b)
	}
	h := uint32(2166136261) // FNV-1a
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	slot := &p.strs[(h^h>>16)%uint32(len(p.strs))]
	if *slot == string(b) {
		return *slot
	}
	s := string(b)
	*slot = s
	return s
}

// value parses the value starting at p.pos, which is not whitespace.
func (p *parser) value() (Value, error) {
	if p.pos >= len(p.src) {
		return Value{}, p.unexpected(p.pos, "(expecting a value)")
	}
	switch c := p.src[p.pos]; c {
	case '"':
		s, err := p.str()
		return Value{s: s, c: &tags[String]}, err
	case '[':
		return p.array()
	case '{':
		return p.object()
	case 't':
		return p.literal("true", Value{n: 1, c: &tags[Bool]})
	case 'f':
		return p.literal("false", Value{c: &tags[Bool]})
	case 'n':
		return p.literal("null", Value{})
	case 'N':
		if p.hasPrefix("NaN") {
			return Value{}, p.errAt(p.pos, "NaN is not allowed")
		}
	case 'I':
		if p.hasPrefix("Infinity") {
			return Value{}, p.errAt(p.pos, "Infinity is not allowed")
		}
	case '-':
		if p.hasPrefix("-Infinity") {
			return Value{}, p.errAt(p.pos, "-Infinity is not allowed")
		}
		return p.number()
	default:
		if c >= '0' && c <= '9' {
			return p.number()
		}
	}
	return Value{}, p.unexpected(p.pos, "(expecting a value)")
}

func (p *parser) hasPrefix(prefix string) bool { return hasPrefixAt(p.src, p.pos, prefix) }

func hasPrefixAt(s []byte, i int, prefix string) bool {
	return len(s)-i >= len(prefix) && string(s[i:i+len(prefix)]) == prefix
}

func (p *parser) literal(word string, v Value) (Value, error) {
	if !p.hasPrefix(word) {
		return Value{}, p.unexpected(p.pos, "(expecting a value)")
	}
	p.pos += len(word)
	return v, nil
}

// number parses the number at p.pos (see ScanNumber).
func (p *parser) number() (Value, error) {
	n, err := ScanNumber(p.src, &p.pos)
	if err != nil {
		return Value{}, err
	}
	if n.IsInt {
		return Value{n: uint64(n.Int), c: &tags[Int]}, nil
	}
	return Value{n: math.Float64bits(n.Float), c: &tags[Float]}, nil
}

// str parses the string whose opening quote is at p.pos.
func (p *parser) str() (string, error) {
	s := p.src
	start := p.pos + 1
	for i := start; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			p.pos = i + 1
			return p.intern(s[start:i]), nil
		}
		if c == '\\' {
			return p.strEscaped(start, i)
		}
		if c < 0x20 {
			return "", p.errAt(i, "invalid control character "+strconv.QuoteRune(rune(c))+" in string")
		}
	}
	return "", p.errAt(start-1, "unterminated string")
}

func (p *parser) strEscaped(start, i int) (string, error) {
	s := p.src
	buf := append(p.buf[:0], s[start:i]...)
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			p.pos = i + 1
			p.buf = buf // reuse it for the next escaped string
			return p.intern(buf), nil
		case c < 0x20:
			return "", p.errAt(i, "invalid control character "+strconv.QuoteRune(rune(c))+" in string")
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		}
		if i+1 >= len(s) {
			break
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := Hex4(s, i+2)
			if !ok {
				return "", p.errAt(i, "invalid \\uXXXX escape")
			}
			switch {
			case r >= 0xdc00 && r <= 0xdfff:
				return "", p.errAt(i, "lone low surrogate escape "+string(s[i:i+6]))
			case r >= 0xd800 && r <= 0xdbff:
				lo, ok := rune(0), false
				if hasPrefixAt(s, i+6, "\\u") {
					lo, ok = Hex4(s, i+8)
				}
				if !ok || lo < 0xdc00 || lo > 0xdfff {
					return "", p.errAt(i, "lone high surrogate escape "+string(s[i:i+6]))
				}
				r = 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00)
				i += 6
			}
			buf = utf8.AppendRune(buf, r)
			i += 6
			continue
		default:
			r, _ := utf8.DecodeRune(s[i+1:])
			return "", p.errAt(i, "invalid escape '\\"+string(r)+"'")
		}
		i += 2
	}
	return "", p.errAt(start-1, "unterminated string")
}

// Hex4 decodes the four hex digits at s[i:i+4], as a \uXXXX escape holds
// them; ok is false if there are fewer than four or one is not hex.
func Hex4(s []byte, i int) (rune, bool) {
	if len(s)-i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errAt(p.pos, "nesting deeper than "+strconv.Itoa(maxDepth))
	}
	return nil
}

// array parses the array whose '[' is at p.pos. Elements collect on the
// shared p.vals stack and are copied into one exactly sized slice at ']'.
func (p *parser) array() (Value, error) {
	if err := p.enter(); err != nil {
		return Value{}, err
	}
	p.pos++
	p.skipWS()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		p.depth--
		return Value{c: &tags[Array]}, nil
	}
	base := len(p.vals)
	for {
		v, err := p.value()
		if err != nil {
			return Value{}, err
		}
		p.vals = append(p.vals, v)
		p.skipWS()
		if p.pos < len(p.src) {
			switch p.src[p.pos] {
			case ',':
				p.pos++
				p.skipWS()
				continue
			case ']':
				p.pos++
				p.depth--
				c := &composite{kind: Array, items: make([]Value, len(p.vals)-base)}
				copy(c.items, p.vals[base:])
				clear(p.vals[base:]) // drop references for the GC
				p.vals = p.vals[:base]
				return Value{c: c}, nil
			}
		}
		return Value{}, p.unexpected(p.pos, "(expecting ',' or ']')")
	}
}

// object parses the object whose '{' is at p.pos, with dict semantics for
// duplicate keys.
func (p *parser) object() (Value, error) {
	if err := p.enter(); err != nil {
		return Value{}, err
	}
	p.pos++
	p.skipWS()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		p.depth--
		return Value{c: &tags[Object]}, nil
	}
	base := len(p.mems)
	var index map[string]int // key -> position in p.mems, for large objects
	for {
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return Value{}, p.unexpected(p.pos, "(expecting a property name in double quotes)")
		}
		key, err := p.str()
		if err != nil {
			return Value{}, err
		}
		p.skipWS()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return Value{}, p.unexpected(p.pos, "(expecting ':')")
		}
		p.pos++
		p.skipWS()
		v, err := p.value()
		if err != nil {
			return Value{}, err
		}
		// A repeated key keeps its first position and takes the new value.
		dup := -1
		if n := len(p.mems) - base; n < 16 {
			for j := base; j < len(p.mems); j++ {
				if p.mems[j].Key == key {
					dup = j
					break
				}
			}
		} else {
			if index == nil {
				index = make(map[string]int, 2*n)
				for j := base; j < len(p.mems); j++ {
					index[p.mems[j].Key] = j
				}
			}
			if j, ok := index[key]; ok {
				dup = j
			} else {
				index[key] = len(p.mems)
			}
		}
		if dup >= 0 {
			p.mems[dup].Value = v
		} else {
			p.mems = append(p.mems, Member{Key: key, Value: v})
		}
		p.skipWS()
		if p.pos < len(p.src) {
			switch p.src[p.pos] {
			case ',':
				p.pos++
				p.skipWS()
				continue
			case '}':
				p.pos++
				p.depth--
				c := &composite{kind: Object, members: make([]Member, len(p.mems)-base)}
				copy(c.members, p.mems[base:])
				clear(p.mems[base:])
				p.mems = p.mems[:base]
				return Value{c: c}, nil
			}
		}
		return Value{}, p.unexpected(p.pos, "(expecting ',' or '}')")
	}
}
