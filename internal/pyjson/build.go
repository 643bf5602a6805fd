package pyjson

import (
	"fmt"
	"slices"
	"strings"
)

// Obj builds an object from members in order: the shape of a Python dict
// literal.
func Obj(members ...Member) Value { return ObjectValue(members) }

// KV builds a member, converting v with From.
func KV(key string, v any) Member { return Member{Key: key, Value: From(v)} }

// From converts a Go value to a Value: nil to null, bool, the integer types
// to int, float64 to float, string, []string, []Value, []Member (an object)
// and Value itself. Any other type panics: it is a programming error, not an
// input error.
func From(v any) Value {
	switch x := v.(type) {
	case nil:
		return NullValue()
	case Value:
		return x
	case bool:
		return BoolValue(x)
	case int:
		return IntValue(int64(x))
	case int64:
		return IntValue(x)
	case float64:
		return FloatValue(x)
	case string:
		return StringValue(x)
	case []string:
		items := make([]Value, len(x))
		for i, s := range x {
			items[i] = StringValue(s)
		}
		return ArrayValue(items)
	case []Value:
		if x == nil {
			x = []Value{}
		}
		return ArrayValue(x)
	case []Member:
		return ObjectValue(x)
	case *string:
		if x == nil {
			return NullValue()
		}
		return StringValue(*x)
	}
	panic(fmt.Sprintf("pyjson.From: unsupported type %T", v))
}

// With returns a copy of object v with key set as a Python dict assignment
// sets it: in place when present, appended otherwise.
func (v Value) With(key string, x any) Value {
	ms := make([]Member, len(v.Members()), len(v.Members())+1)
	copy(ms, v.Members())
	val := From(x)
	for i := range ms {
		if ms[i].Key == key {
			ms[i].Value = val
			return ObjectValue(ms)
		}
	}
	return ObjectValue(append(ms, Member{Key: key, Value: val}))
}

// Without returns a copy of object v without its member key.
func (v Value) Without(key string) Value {
	var ms []Member
	for _, m := range v.Members() {
		if m.Key != key {
			ms = append(ms, m)
		}
	}
	return ObjectValue(ms)
}

// AppendDumps appends json.dumps(v, ensure_ascii=False): one line, members
// in order, ", " between items and ": " after keys. The reference writes its
// JSON-lines logs this way.
func AppendDumps(dst []byte, v Value) []byte { return appendInOrder(dst, v, ", ", ": ") }

// Noun names a kind with its article, for messages: "an int", "a string",
// "null".
func (k Kind) Noun() string {
	switch k {
	case Null:
		return "null"
	case Int, Array, Object:
		return "an " + k.String()
	}
	return "a " + k.String()
}

// AppendCompact appends json.dumps(v, separators=(",", ":"),
// ensure_ascii=False): one line, members in order, no white space. The
// smallest form Python's json reads back.
func AppendCompact(dst []byte, v Value) []byte { return appendInOrder(dst, v, ",", ":") }

// appendInOrder writes v on one line with its members in order, comma
// between items and colon after keys, as json.dumps with those separators.
func appendInOrder(dst []byte, v Value, comma, colon string) []byte {
	switch v.Kind() {
	case Array:
		dst = append(dst, '[')
		for i, it := range v.Items() {
			if i > 0 {
				dst = append(dst, comma...)
			}
			dst = appendInOrder(dst, it, comma, colon)
		}
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		for i, m := range v.Members() {
			if i > 0 {
				dst = append(dst, comma...)
			}
			dst = AppendString(dst, m.Key)
			dst = append(dst, colon...)
			dst = appendInOrder(dst, m.Value, comma, colon)
		}
		return append(dst, '}')
	}
	return AppendCanonical(dst, v) // scalars are written alike by every mode
}

// SortKeys returns v with every object's members sorted by key, recursively:
// the member order of Canonical, as a Value.
func SortKeys(v Value) Value {
	switch v.Kind() {
	case Array:
		items := make([]Value, len(v.Items()))
		for i, it := range v.Items() {
			items[i] = SortKeys(it)
		}
		return ArrayValue(items)
	case Object:
		ms := make([]Member, len(v.Members()))
		for i, m := range v.Members() {
			ms[i] = Member{Key: m.Key, Value: SortKeys(m.Value)}
		}
		slices.SortStableFunc(ms, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
		return ObjectValue(ms)
	}
	return v
}
