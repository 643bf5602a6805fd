package torusfield

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// scanner reads a state document in place for RestoreBytes's fast path.
//
// It accepts a subset of what pyjson.Parse accepts and, for what it
// accepts, yields the values Parse would. Every method returns false when
// the input is not in that subset: malformed, or well-formed but unusual
// (an escaped string where a value is read). Numbers are read by Parse's
// own scanner, pyjson.ScanNumber. The caller then abandons the fast path and lets pyjson.Parse and
// Restore judge the document, so that scanner never has to reproduce an
// error, only to recognise the common case. Rejecting too much costs time;
// accepting too much would be a bug.
type scanner struct {
	src   []byte
	pos   int
	depth int // open arrays and objects, counted as pyjson.Parse counts them
}

// maxDepth is pyjson.Parse's nesting limit: deeper documents are its errors.
const maxDepth = 1000

// ws skips JSON white space.
func (s *scanner) ws() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\r', '\t':
			s.pos++
		case '\n':
			// An indented state puts runs of spaces after each newline.
			s.pos++
			for len(s.src)-s.pos >= 8 && binary.LittleEndian.Uint64(s.src[s.pos:]) == 0x2020202020202020 {
				s.pos += 8
			}
		default:
			return
		}
	}
}

// peek returns the next byte after white space, or 0 at the end.
func (s *scanner) peek() byte {
	if s.pos < len(s.src) && s.src[s.pos] > ' ' { // compact JSON: no white space to skip
		return s.src[s.pos]
	}
	s.ws()
	if s.pos < len(s.src) {
		return s.src[s.pos]
	}
	return 0
}

// eat consumes c if it is the next byte after white space.
func (s *scanner) eat(c byte) bool {
	if s.pos < len(s.src) && s.src[s.pos] == c {
		s.pos++
		return true
	}
	if s.peek() != c {
		return false
	}
	s.pos++
	return true
}

// end reports whether only white space is left, as after a document.
func (s *scanner) end() bool {
	s.ws()
	return s.pos == len(s.src)
}

func (s *scanner) enter() bool {
	s.depth++
	return s.depth <= maxDepth
}

// object scans the object at the next byte, calling member with each key;
// member must scan the value. Keys with escapes are left to the slow path.
func (s *scanner) object(member func(key []byte) bool) bool {
	if !s.eat('{') || !s.enter() {
		return false
	}
	if s.eat('}') {
		s.depth--
		return true
	}
	for {
		key, ok := s.str()
		if !ok || !s.eat(':') {
			return false
		}
		s.ws()
		if !member(key) {
			return false
		}
		if s.eat('}') {
			s.depth--
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// array scans the array at the next byte, calling elem with each index;
// elem must scan the element.
func (s *scanner) array(elem func(i int) bool) bool {
	if !s.eat('[') || !s.enter() {
		return false
	}
	if s.eat(']') {
		s.depth--
		return true
	}
	for i := 0; ; i++ {
		s.ws()
		if !elem(i) {
			return false
		}
		if s.eat(']') {
			s.depth--
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// str scans a string without escapes and returns its bytes, a slice of the
// input. pyjson.Parse checks that the whole document is UTF-8; checking
// each string is the same check, since outside strings the scanner accepts
// ASCII only and a UTF-8 sequence never contains an ASCII byte.
func (s *scanner) str() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	start := s.pos + 1
	rest := s.src[start:]
	var seen byte // the classes of the bytes before the closing quote
	for i, c := range rest {
		if c == '"' {
			b := rest[:i]
			if seen&strEscape != 0 || (seen&strHigh != 0 && !utf8.Valid(b)) {
				return nil, false
			}
			s.pos = start + i + 1
			return b, true
		}
		seen |= strClass[c]
	}
	return nil, false
}

// Byte classes inside a string: a backslash or control character (which
// str leaves to the slow path), a byte of a multi-byte UTF-8 sequence.
const (
	strEscape = 1 << iota
	strHigh
)

var strClass = func() (t [256]byte) {
	for c := range 0x20 {
		t[c] = strEscape
	}
	t['\\'] = strEscape
	for c := 0x80; c < 0x100; c++ {
		t[c] = strHigh
	}
	return t
}()

// skip scans any value, checking it as pyjson.Parse would, and returns its
// bytes: members the engine ignores must still be valid JSON.
func (s *scanner) skip() ([]byte, bool) {
	s.ws()
	start := s.pos
	var ok bool
	switch c := s.peek(); {
	case c == '"':
		ok = s.skipString()
	case c == '{':
		ok = s.object(func([]byte) bool { _, ok := s.skip(); return ok })
	case c == '[':
		ok = s.array(func(int) bool { _, ok := s.skip(); return ok })
	case c == 't':
		ok = s.lit("true")
	case c == 'f':
		ok = s.lit("false")
	case c == 'n':
		ok = s.lit("null")
	default:
		ok = s.skipNumber()
	}
	return s.src[start:s.pos], ok
}

// lit consumes text if the input continues with it, white space and all.
func (s *scanner) lit(text string) bool {
	if len(s.src)-s.pos < len(text) || string(s.src[s.pos:s.pos+len(text)]) != text {
		return false
	}
	s.pos += len(text)
	return true
}

// skipString scans a string with any escapes pyjson.Parse accepts: the
// values of skipped members (the bridge's meta, edge metas copied from the
// manifest) may hold control characters, which json.dumps writes as \u00XX.
func (s *scanner) skipString() bool {
	start := s.pos + 1
	ascii := true
	for i := start; i < len(s.src); i++ {
		switch c := s.src[i]; {
		case c == '"':
			if !ascii && !utf8.Valid(s.src[start:i]) {
				return false
			}
			s.pos = i + 1
			return true
		case c == '\\':
			n := escapeLen(s.src, i)
			if n == 0 {
				return false
			}
			i += n - 1
		case c < 0x20:
			return false
		case c >= 0x80:
			ascii = false
		}
	}
	return false
}

// escapeLen returns the length of the escape at src[i] (a backslash) as
// pyjson.Parse accepts it, or 0: \uXXXX may not be a lone surrogate, and a
// high surrogate takes its low one along.
func escapeLen(src []byte, i int) int {
	if i+1 >= len(src) {
		return 0
	}
	switch src[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
	default:
		return 0
	}
	r, ok := pyjson.Hex4(src, i+2)
	switch {
	case !ok || (r >= 0xdc00 && r <= 0xdfff):
		return 0
	case r < 0xd800 || r > 0xdbff:
		return 6
	}
	if len(src)-i < 12 || src[i+6] != '\\' || src[i+7] != 'u' {
		return 0
	}
	if lo, ok := pyjson.Hex4(src, i+8); !ok || lo < 0xdc00 || lo > 0xdfff {
		return 0
	}
	return 12
}
