package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The model log (RelModelLog) keeps a learning model's records out of the
// state file, which every call reads and rewrites whole: a call reads the
// records it needs (Tx.Record) and a commit appends only those it changed
// (Tx.SetRecords), one line per commit that changed any:
//
//	{"seq":N,"set":[["KEY",VALUE],...],"merge":[["KEY",PATCH],...]}
//
// N is the commit's event. A set gives a key's value: the caller's JSON,
// compact; null deletes the key. A merge gives a JSON merge patch (RFC
// 7386, an object, compact) to apply to the key's value, so that a model
// changing one member of a large record writes only that member. Each
// array's keys are sorted (byte order) and distinct, no key is in both,
// "set" is left out when it is empty and there are merges, and "merge"
// when it is empty. It is a data file like the others (counted and
// chain-hashed in the meta, proven by check, cut back by recovery, copied
// by snapshots), except that the meta names it only once it has a line,
// so a workspace that never set a record keeps the state bytes it had
// before the log existed.

// RelModelLog is the model log.
const RelModelLog = "ucs/state/model.jsonl"

// A Record is a key of the model log and its value: compact JSON, or nil
// for none (JSON null, which deletes the key when set). When Merge is set,
// Value is a merge patch (RFC 7386: a JSON object) for the key's value
// rather than the value.
type Record struct {
	Key   string
	Value []byte
	Merge bool
}

var jsonNull = []byte("null")

// normalizeValue checks a record's value and returns it compact; nil is
// null.
func normalizeValue(key string, v []byte) ([]byte, error) {
	if !utf8.ValidString(key) {
		return nil, fault.Internal(errors.New("not valid UTF-8"), "record key %q", key)
	}
	if v == nil {
		return jsonNull, nil
	}
	if !utf8.Valid(v) || !json.Valid(v) {
		return nil, fault.Internal(errors.New("not valid JSON text"), "the value of record %q", key)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return nil, fault.Internal(err, "the value of record %q", key)
	}
	// encoding/json nests deeper than the log's reader does, and takes
	// numbers the workspace's reader does not: a value they cannot read
	// back would make the log corrupt.
	if s := (jsonScanner{b: b.Bytes()}); !s.value(0) || s.i != b.Len() {
		return nil, fault.Internal(errors.New("nested too deep, or a number out of range"), "the value of record %q", key)
	}
	return b.Bytes(), nil
}

// appendModelLine appends a line of the model log, without its newline,
// for records with distinct keys and compact values, the sets in key order
// and the merges in key order.
func appendModelLine(dst []byte, seq int64, recs []Record) []byte {
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendInt(dst, seq, 10)
	merges := 0
	for _, r := range recs {
		if r.Merge {
			merges++
		}
	}
	if merges < len(recs) || merges == 0 {
		dst = appendRecordArray(dst, `,"set":[`, recs, false)
	}
	if merges > 0 {
		dst = appendRecordArray(dst, `,"merge":[`, recs, true)
	}
	return append(dst, '}')
}

// appendRecordArray appends name and the records whose Merge is merge,
// then the array's end.
func appendRecordArray(dst []byte, name string, recs []Record, merge bool) []byte {
	dst = append(dst, name...)
	first := true
	for _, r := range recs {
		if r.Merge != merge {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, '[')
		dst = appendJSONString(dst, r.Key)
		dst = append(dst, ',')
		dst = append(dst, r.Value...)
		dst = append(dst, ']')
	}
	return append(dst, ']')
}

// appendJSONString writes s as a JSON string: UTF-8 as it is, quotes,
// backslashes and control characters escaped (no HTML escaping: the
// bytes depend on nothing but s).
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// parseModelLine reads a line of the model log (without its newline): its
// event and records, the sets in key order and then the merges in key
// order, each value compact JSON (null for a deletion; it shares line's
// memory unless it had to be made compact). Anything but the format above
// is an error, and no input makes it panic. It is a scanner of its own,
// not a JSON decoder: a call parses the lines the index does not cover
// yet, and this costs a fraction of decoding them.
func parseModelLine(line []byte) (seq int64, recs []Record, err error) {
	const want = `want {"seq":N,"set":[...],"merge":[...]}`
	s := jsonScanner{b: line}
	if !utf8.Valid(line) {
		return s.fail("not valid UTF-8")
	}
	if !s.token(`{`) || !s.token(`"seq"`) || !s.token(`:`) {
		return s.fail(want)
	}
	s.space()
	from := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	seq, err = strconv.ParseInt(string(s.b[from:s.i]), 10, 64)
	if err != nil || seq < 1 || (s.b[from] == '0') {
		return s.fail(`"seq" must be a positive integer`)
	}
	if !s.token(`,`) {
		return s.fail(want)
	}
	hasSet := s.token(`"set"`)
	if hasSet {
		if !s.token(`:`) {
			return s.fail(want)
		}
		if recs, err = s.recordArray(recs, false); err != nil {
			return 0, nil, err
		}
		if s.token(`}`) {
			return s.end(seq, recs)
		}
		if !s.token(`,`) {
			return s.fail(want)
		}
	}
	sets := len(recs)
	if !s.token(`"merge"`) || !s.token(`:`) {
		return s.fail(want)
	}
	if recs, err = s.recordArray(recs, true); err != nil {
		return 0, nil, err
	}
	switch {
	case len(recs) == sets:
		return s.fail(`"merge" is left out when it is empty`)
	case hasSet && sets == 0:
		return s.fail(`"set" is left out when it is empty and there are merges`)
	}
	for i, j := 0, sets; i < sets && j < len(recs); {
		switch c := strings.Compare(recs[i].Key, recs[j].Key); {
		case c == 0:
			return s.fail(fmt.Sprintf("%q is both set and merged", recs[i].Key))
		case c < 0:
			i++
		default:
			j++
		}
	}
	if !s.token(`}`) {
		return s.fail(want)
	}
	return s.end(seq, recs)
}

// end checks that nothing but whitespace follows the line's object.
func (s *jsonScanner) end(seq int64, recs []Record) (int64, []Record, error) {
	if s.space(); s.i != len(s.b) {
		return s.fail("more after the object")
	}
	return seq, slices.Clip(recs), nil
}

// recordArray reads an array of ["KEY",VALUE] pairs, keys sorted and
// distinct, appending them to recs; a merge's value must be an object.
func (s *jsonScanner) recordArray(recs []Record, merge bool) ([]Record, error) {
	fail := func(what string) ([]Record, error) {
		_, _, err := s.fail(what)
		return nil, err
	}
	if !s.token(`[`) {
		return fail(`want [ after "set" or "merge"`)
	}
	if s.token(`]`) {
		return recs, nil
	}
	first := len(recs)
	for {
		if !s.token(`[`) {
			return fail(`each record must be ["KEY", VALUE]`)
		}
		s.space()
		raw, escaped, ok := s.string()
		if !ok {
			return fail(`each record must be ["KEY", VALUE]`)
		}
		key := string(raw)
		if escaped {
			key = unescapeJSON(raw)
		}
		if len(recs) > first && key <= recs[len(recs)-1].Key {
			return fail(fmt.Sprintf("the keys are not sorted and distinct at %q", key))
		}
		if !s.token(`,`) {
			return fail(`each record must be ["KEY", VALUE]`)
		}
		s.space()
		from := s.i
		s.spaced = false
		if !s.value(0) {
			return fail(fmt.Sprintf("the value of %q is not JSON", key))
		}
		value := s.b[from:s.i:s.i]
		if merge && !isJSONObject(value) {
			return fail(fmt.Sprintf("the merge of %q is not an object", key))
		}
		if s.spaced {
			var b bytes.Buffer
			json.Compact(&b, value) // valid: scanned
			value = b.Bytes()
		}
		recs = append(recs, Record{Key: key, Value: value, Merge: merge})
		if !s.token(`]`) {
			return fail(`each record must be ["KEY", VALUE]`)
		}
		if s.token(`]`) {
			return recs, nil
		}
		if !s.token(`,`) {
			return fail(`want , or ] after a record`)
		}
	}
}

// A jsonScanner reads JSON text from b at i. Its input is valid UTF-8
// (checked whole first).
type jsonScanner struct {
	b      []byte
	i      int
	spaced bool // whitespace was skipped inside a value
}

func (s *jsonScanner) fail(what string) (int64, []Record, error) {
	return 0, nil, fmt.Errorf("not a line of the model log: %s (at byte %d)", what, s.i)
}

func (s *jsonScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
			s.spaced = true
		default:
			return
		}
	}
}

// token skips whitespace and then t, if it is there.
func (s *jsonScanner) token(t string) bool {
	s.space()
	if bytes.HasPrefix(s.b[s.i:], []byte(t)) {
		s.i += len(t)
		return true
	}
	return false
}

// string reads a string at i: its content, undecoded, and whether it has
// escapes.
func (s *jsonScanner) string() (raw []byte, escaped, ok bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false, false
	}
	from := s.i + 1
	for i := from; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			s.i = i + 1
			return s.b[from:i], escaped, true
		case c < 0x20:
			return nil, false, false
		case c == '\\':
			escaped = true
			if i++; i >= len(s.b) {
				return nil, false, false
			}
			switch s.b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(s.b) {
					return nil, false, false
				}
				for _, h := range s.b[i+1 : i+5] {
					if !strings.ContainsRune("0123456789abcdefABCDEF", rune(h)) {
						return nil, false, false
					}
				}
				// A surrogate escape only as the first of a pair: the
				// workspace's JSON reader, which check uses, refuses a
				// lone one.
				switch r := hexValue(s.b[i+1 : i+5]); {
				case r >= 0xdc00 && r <= 0xdfff:
					return nil, false, false
				case r >= 0xd800 && r <= 0xdbff:
					if i+10 >= len(s.b) || s.b[i+5] != '\\' || s.b[i+6] != 'u' {
						return nil, false, false
					}
					low := s.b[i+7 : i+11]
					if strings.Trim(string(low), "0123456789abcdefABCDEF") != "" {
						return nil, false, false
					}
					if lr := hexValue(low); lr < 0xdc00 || lr > 0xdfff {
						return nil, false, false
					}
					i += 6
				}
				i += 4
			default:
				return nil, false, false
			}
		}
	}
	return nil, false, false
}

// value reads one JSON value at i, strictly.
func (s *jsonScanner) value(depth int) bool {
	if depth > 512 || s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		_, _, ok := s.string()
		return ok
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		s.i++
		if s.token(string(end)) {
			return true
		}
		for {
			s.space()
			if c == '{' {
				if _, _, ok := s.string(); !ok || !s.token(":") {
					return false
				}
				s.space()
			}
			if !s.value(depth + 1) {
				return false
			}
			if s.token(string(end)) {
				return true
			}
			if !s.token(",") {
				return false
			}
		}
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(s.b[s.i:], []byte(lit)) {
			s.i += len(lit)
			return true
		}
	}
	return false
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? at i, and
// only a number the workspace's JSON reader reads (an int within int64, a
// float within float64's range): check reads every line with it.
func (s *jsonScanner) number() bool {
	from := s.i
	if !s.numberSyntax() {
		return false
	}
	lit := s.b[from:s.i]
	if len(lit) <= 18 && bytes.IndexAny(lit, "eE") < 0 {
		return true // in range, whatever its digits: the reader need not look
	}
	at := from
	_, err := pyjson.ScanNumber(s.b, &at)
	return err == nil && at == s.i
}

func (s *jsonScanner) numberSyntax() bool {
	digits := func() int {
		n := 0
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.b[s.i] == '-' {
		s.i++
	}
	if s.i < len(s.b) && s.b[s.i] == '0' {
		s.i++
	} else if digits() == 0 {
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// unescapeJSON decodes the content of a JSON string that the scanner
// accepted (which has no lone surrogate; one would become U+FFFD, as
// encoding/json has it).
func unescapeJSON(raw []byte) string {
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r := rune(hexValue(raw[i+1 : i+5]))
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := unicode.ReplacementChar
				// A pair is two escapes; the scanner checked both.
				if i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					if dec := utf16.DecodeRune(r, rune(hexValue(raw[i+3:i+7]))); dec != unicode.ReplacementChar {
						r2 = dec
						i += 6
					}
				}
				r = r2
			}
			b.WriteRune(r)
		default: // " \ /
			b.WriteByte(raw[i])
		}
	}
	return b.String()
}

func hexValue(h []byte) int {
	n := 0
	for _, c := range h {
		n <<= 4
		switch {
		case c >= '0' && c <= '9':
			n |= int(c - '0')
		case c >= 'a' && c <= 'f':
			n |= int(c-'a') + 10
		default:
			n |= int(c-'A') + 10
		}
	}
	return n
}
