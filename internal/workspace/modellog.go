package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// The model log (RelModelLog) keeps a learning model's records out of the
// state file, which every call reads and rewrites whole: a call reads the
// records it needs (Tx.Record) and a commit appends only those it changed
// (Tx.SetRecords), one line per commit that changed any:
//
//	{"seq":N,"set":[["KEY",VALUE],...]}
//
// N is the commit's event, keys are sorted (byte order) and distinct, and
// VALUE is the caller's JSON, compact; null deletes the key. It is a data
// file like the others (counted and chain-hashed in the meta, proven by
// check, cut back by recovery, copied by snapshots), except that the meta
// names it only once it has a line, so a workspace that never set a record
// keeps the state bytes it had before the log existed.

// RelModelLog is the model log.
const RelModelLog = "ucs/state/model.jsonl"

// A Record is a key of the model log and its value: compact JSON, or nil
// for none (JSON null, which deletes the key when set).
type Record struct {
	Key   string
	Value []byte
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
	return b.Bytes(), nil
}

// appendModelLine appends a line of the model log, without its newline,
// for records sorted by key with distinct keys and compact values.
func appendModelLine(dst []byte, seq int64, recs []Record) []byte {
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendInt(dst, seq, 10)
	dst = append(dst, `,"set":[`...)
	for i, r := range recs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		dst = appendJSONString(dst, r.Key)
		dst = append(dst, ',')
		dst = append(dst, r.Value...)
		dst = append(dst, ']')
	}
	return append(dst, "]}"...)
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
// event and records, in key order, each value compact JSON (null for a
// deletion) in a copy of its own. Anything but the format above is an
// error, and no input makes it panic.
func parseModelLine(line []byte) (seq int64, recs []Record, err error) {
	bad := func(format string, args ...any) (int64, []Record, error) {
		return 0, nil, fmt.Errorf("not a line of the model log: "+format, args...)
	}
	if !utf8.Valid(line) || !gjson.ValidBytes(line) {
		return bad("not valid JSON")
	}
	doc := gjson.ParseBytes(line)
	if !doc.IsObject() {
		return bad("not an object")
	}
	members := 0
	var set gjson.Result
	doc.ForEach(func(k, v gjson.Result) bool {
		members++
		switch {
		case members == 1 && k.Str == "seq" && v.Type == gjson.Number:
			seq, err = strconv.ParseInt(v.Raw, 10, 64)
			if err != nil || seq < 1 {
				err = errors.New(`"seq" must be a positive integer`)
			}
		case members == 2 && k.Str == "set" && v.IsArray():
			set = v
		default:
			err = errors.New(`want the members "seq" and "set", in that order`)
		}
		return err == nil
	})
	if err == nil && members != 2 {
		err = errors.New(`want the members "seq" and "set", in that order`)
	}
	if err != nil {
		return bad("%v", err)
	}
	var last string
	set.ForEach(func(_, pair gjson.Result) bool {
		k, v, n := gjson.Result{}, gjson.Result{}, 0
		if pair.IsArray() {
			pair.ForEach(func(_, x gjson.Result) bool {
				if n++; n == 1 {
					k = x
				} else {
					v = x
				}
				return n <= 2
			})
		}
		switch {
		case n != 2 || k.Type != gjson.String:
			err = errors.New(`each record must be ["KEY", VALUE]`)
		case len(recs) > 0 && k.Str <= last:
			err = fmt.Errorf("the keys are not sorted and distinct at %q", k.Str)
		case !utf8.ValidString(k.Str):
			err = fmt.Errorf("the key %q is not valid UTF-8", k.Str)
		}
		if err != nil {
			return false
		}
		value := []byte(v.Raw)
		if strings.ContainsAny(v.Raw, " \t\r\n") {
			var b bytes.Buffer
			json.Compact(&b, value) // valid: the whole line is
			value = b.Bytes()
		}
		last = k.Str
		recs = append(recs, Record{Key: strings.Clone(k.Str), Value: value})
		return true
	})
	if err != nil {
		return bad("%v", err)
	}
	return seq, slices.Clip(recs), nil
}
