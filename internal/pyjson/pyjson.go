// Package pyjson reads and writes JSON byte-for-byte as CPython 3.11's json
// module does, so that the Go port produces exactly the bytes the Python
// program produced.
//
// What it keeps that encoding/json loses:
//
//   - the int/float distinction: a literal without '.', 'e' or 'E' is an int
//     (Kind Int, int64), anything else a float (Kind Float, float64), and
//     floats are written with Python's repr (1.0, 1e-05, 1e+16, -0.0);
//   - object member order, with Python dict semantics for duplicate keys
//     (position of the first occurrence, value of the last);
//   - Python's output layouts: Canonical is json.dumps(v, sort_keys=True,
//     separators=(",", ":"), ensure_ascii=False) and Indent is
//     json.dumps(v, indent=2, ensure_ascii=False) (and json.dump, which
//     writes the same bytes and no trailing newline).
//
// A member is read as the reference's dict.get reads it: Get, or StrOf,
// StrsOf and GetOr, which read a missing or mistyped member as empty.
//
// What it does not do: it has no struct mapping, reflection or streaming; it
// parses one complete document held in memory. It is stricter than
// json.loads (see Parse): NaN and Infinity literals, invalid UTF-8, lone
// surrogates, float overflow, ints outside int64 and nesting deeper than
// 1000 levels are errors instead of values Go cannot represent faithfully.
// It does not implement ensure_ascii=True, other indents or separators.
package pyjson

import (
	"math"
	"strconv"
)

// Kind is the type of a Value, with Python's int and float kept apart.
type Kind uint8

// The kinds of JSON value.
const (
	Null Kind = iota
	Bool
	Int
	Float
	String
	Array
	Object
)

var kindNames = [...]string{"null", "bool", "int", "float", "string", "array", "object"}

// String returns the lowercase name of the kind ("null", "bool", "int", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is an immutable-ish JSON value that keeps what Python keeps: the
// distinction between int (no '.', 'e' or 'E' in the literal) and float, and
// object member order. The zero Value is null. Values share the slices they
// were built from; do not modify a slice after passing it to a constructor
// or after getting it from Items or Members. Values compare with
// reflect.DeepEqual (and testify's Equal) by content.
type Value struct {
	_ [0]func() // not comparable with ==: arrays and objects would compare by identity
	s string
	n uint64     // Bool: 0/1; Int: int64 bits; Float: float64 bits
	c *composite // kind and elements; nil for null
}

// composite holds a value's kind and, for arrays and objects, the elements.
// Scalars and empty containers point at a shared tag, so Value stays at 32
// bytes and one allocation holds an array's or object's elements: parsing
// and writing are dominated by moving Values around and by fresh memory.
type composite struct {
	kind    Kind
	intKeys bool // Object whose keys are Python ints (see IntKeyObjectValue)
	items   []Value
	members []Member
	// raw holds an array's items as JSON text instead of items (RawItems):
	// each is decoded when it is read or written.
	raw [][]byte
}

// tags are the shared composites of scalars and of empty arrays and objects.
// They are never modified.
var tags = [...]composite{{kind: Null}, {kind: Bool}, {kind: Int}, {kind: Float}, {kind: String}, {kind: Array}, {kind: Object}}

// Member is one key/value pair of an object.
type Member struct {
	Key   string
	Value Value
}

// NullValue returns JSON null (Python None).
func NullValue() Value { return Value{} }

// BoolValue returns true or false.
func BoolValue(b bool) Value {
	v := Value{c: &tags[Bool]}
	if b {
		v.n = 1
	}
	return v
}

// IntValue returns a Python int.
func IntValue(i int64) Value { return Value{n: uint64(i), c: &tags[Int]} }

// FloatValue returns a Python float. NaN and ±Inf are written as NaN,
// Infinity and -Infinity, as json.dumps does by default.
func FloatValue(f float64) Value { return Value{n: math.Float64bits(f), c: &tags[Float]} }

// StringValue returns a string value. s should be valid UTF-8 (Python strs
// always are); invalid bytes are written through unchanged.
func StringValue(s string) Value { return Value{s: s, c: &tags[String]} }

// ArrayValue returns an array holding items (not copied). A nil slice is an
// empty array.
func ArrayValue(items []Value) Value {
	if len(items) == 0 {
		return Value{c: &tags[Array]}
	}
	return Value{c: &composite{kind: Array, items: items}}
}

// ObjectValue returns an object with members in the given order (not
// copied). Keys should be distinct, as in a Python dict: Get returns the
// first match and the writers write every member as given. A nil slice is an
// empty object.
func ObjectValue(members []Member) Value {
	if len(members) == 0 {
		return Value{c: &tags[Object]}
	}
	return Value{c: &composite{kind: Object, members: members}}
}

// IntKeyObjectValue is an object whose keys are decimal integers in Python (a
// dict with int keys). Canonical (sort_keys) output orders its members
// numerically, as Python sorts int keys, instead of by string. Keys must be
// written as Python's str(int) writes them ("-3", "0", "12").
func IntKeyObjectValue(members []Member) Value {
	if len(members) == 0 {
		return Value{c: &tags[Object]}
	}
	return Value{c: &composite{kind: Object, intKeys: true, members: members}}
}

// Kind returns the kind of v.
func (v Value) Kind() Kind {
	if v.c == nil {
		return Null
	}
	return v.c.kind
}

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.Kind() == Null }

// Bool returns the boolean of a Bool value, false for any other kind.
func (v Value) Bool() bool { return v.Kind() == Bool && v.n != 0 }

// Int returns the integer of an Int value; ok is false for any other kind
// (including floats with integral values, which Python keeps as floats).
func (v Value) Int() (int64, bool) {
	if v.Kind() != Int {
		return 0, false
	}
	return int64(v.n), true
}

// Float returns the number of a Float or Int value (converted to the nearest
// float64, as Python's float(int) does); ok is false for any other kind.
func (v Value) Float() (float64, bool) {
	switch v.Kind() {
	case Float:
		return math.Float64frombits(v.n), true
	case Int:
		return float64(int64(v.n)), true
	}
	return 0, false
}

// Str returns the string of a String value, "" for any other kind.
func (v Value) Str() string {
	if v.Kind() != String {
		return ""
	}
	return v.s
}

// Items returns the elements of an Array value, nil for any other kind and
// for an empty array.
func (v Value) Items() []Value {
	if v.c == nil {
		return nil
	}
	if v.c.raw != nil {
		items := make([]Value, len(v.c.raw))
		for i := range items {
			items[i] = v.item(i)
		}
		return items
	}
	return v.c.items // nil unless an array
}

// RawItems returns an array whose items are held as the JSON documents in
// docs (not copied) and decoded one at a time when the array is written or
// read: a big list that is only written out (an export's methodology) costs
// its text, not its decoded tree. Every document must parse; the error of
// the first that does not is a *RawItemError. Writers and Items see the
// decoded items; reflect.DeepEqual does not (it tells the two apart).
func RawItems(docs [][]byte) (Value, error) {
	for i, d := range docs {
		if _, err := Parse(d); err != nil {
			return Value{}, &RawItemError{Index: i, Err: err}
		}
	}
	if len(docs) == 0 {
		return Value{c: &tags[Array]}, nil
	}
	return Value{c: &composite{kind: Array, raw: docs}}, nil
}

// A RawItemError says which document given to RawItems does not parse.
type RawItemError struct {
	Index int // into docs
	Err   error
}

func (e *RawItemError) Error() string { return "item " + strconv.Itoa(e.Index) + ": " + e.Err.Error() }

func (e *RawItemError) Unwrap() error { return e.Err }

// arrayLen is the number of items of an array, whatever holds them.
func (v Value) arrayLen() int {
	if v.c == nil {
		return 0
	}
	if v.c.raw != nil {
		return len(v.c.raw)
	}
	return len(v.c.items)
}

// item returns item i of an array, decoding it if it is held as text
// (RawItems checked that it parses).
func (v Value) item(i int) Value {
	if v.c.raw != nil {
		x, _ := Parse(v.c.raw[i])
		return x
	}
	return v.c.items[i]
}

// Members returns the members of an Object value in order, nil for any other
// kind and for an empty object.
func (v Value) Members() []Member {
	if v.c == nil {
		return nil
	}
	return v.c.members // nil unless an object
}

// Get returns the value of the member named key of an Object value. ok is
// false if v is not an object or has no such member.
func (v Value) Get(key string) (Value, bool) {
	for _, m := range v.Members() {
		if m.Key == key {
			return m.Value, true
		}
	}
	return Value{}, false
}
