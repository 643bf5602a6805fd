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
// What it does not do: it has no struct mapping, reflection or streaming; it
// parses one complete document held in memory. It is stricter than
// json.loads (see Parse): NaN and Infinity literals, invalid UTF-8, lone
// surrogates, float overflow, ints outside int64 and nesting deeper than
// MaxDepth are errors instead of values Go cannot represent faithfully.
// It does not implement ensure_ascii=True, other indents or separators.
package pyjson

import (
	"math"
	"strconv"
)

// MaxDepth is the deepest nesting of arrays and objects Parse accepts.
const MaxDepth = 1000

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
// or after getting it from Items or Members.
type Value struct {
	kind    Kind
	intKeys bool   // Object whose keys are Python ints (see IntKeyObjectValue)
	n       uint64 // Bool: 0/1; Int: int64 bits; Float: float64 bits
	s       string
	items   []Value
	members []Member
}

// Member is one key/value pair of an object.
type Member struct {
	Key   string
	Value Value
}

// NullValue returns JSON null (Python None).
func NullValue() Value { return Value{} }

// BoolValue returns true or false.
func BoolValue(b bool) Value {
	v := Value{kind: Bool}
	if b {
		v.n = 1
	}
	return v
}

// IntValue returns a Python int.
func IntValue(i int64) Value { return Value{kind: Int, n: uint64(i)} }

// FloatValue returns a Python float. NaN and ±Inf are written as NaN,
// Infinity and -Infinity, as json.dumps does by default.
func FloatValue(f float64) Value { return Value{kind: Float, n: math.Float64bits(f)} }

// StringValue returns a string value. s should be valid UTF-8 (Python strs
// always are); invalid bytes are written through unchanged.
func StringValue(s string) Value { return Value{kind: String, s: s} }

// ArrayValue returns an array holding items (not copied). A nil slice is an
// empty array.
func ArrayValue(items []Value) Value { return Value{kind: Array, items: items} }

// ObjectValue returns an object with members in the given order (not
// copied). Keys should be distinct, as in a Python dict: Get returns the
// first match and the writers write every member as given. A nil slice is an
// empty object.
func ObjectValue(members []Member) Value { return Value{kind: Object, members: members} }

// IntKeyObjectValue is an object whose keys are decimal integers in Python (a
// dict with int keys). Canonical (sort_keys) output orders its members
// numerically, as Python sorts int keys, instead of by string. Keys must be
// written as Python's str(int) writes them ("-3", "0", "12").
func IntKeyObjectValue(members []Member) Value {
	return Value{kind: Object, intKeys: true, members: members}
}

// Kind returns the kind of v.
func (v Value) Kind() Kind { return v.kind }

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.kind == Null }

// Bool returns the boolean of a Bool value, false for any other kind.
func (v Value) Bool() bool { return v.kind == Bool && v.n != 0 }

// Int returns the integer of an Int value; ok is false for any other kind
// (including floats with integral values, which Python keeps as floats).
func (v Value) Int() (int64, bool) {
	if v.kind != Int {
		return 0, false
	}
	return int64(v.n), true
}

// Float returns the number of a Float or Int value (converted to the nearest
// float64, as Python's float(int) does); ok is false for any other kind.
func (v Value) Float() (float64, bool) {
	switch v.kind {
	case Float:
		return math.Float64frombits(v.n), true
	case Int:
		return float64(int64(v.n)), true
	}
	return 0, false
}

// Str returns the string of a String value, "" for any other kind.
func (v Value) Str() string {
	if v.kind != String {
		return ""
	}
	return v.s
}

// Items returns the elements of an Array value, nil for any other kind.
func (v Value) Items() []Value {
	if v.kind != Array {
		return nil
	}
	return v.items
}

// Members returns the members of an Object value in order, nil for any other
// kind.
func (v Value) Members() []Member {
	if v.kind != Object {
		return nil
	}
	return v.members
}

// Get returns the value of the member named key of an Object value. ok is
// false if v is not an object or has no such member.
func (v Value) Get(key string) (Value, bool) {
	if v.kind != Object {
		return Value{}, false
	}
	for i := range v.members {
		if v.members[i].Key == key {
			return v.members[i].Value, true
		}
	}
	return Value{}, false
}
