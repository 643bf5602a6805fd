package torusfield

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// valueBuilder builds the free-form parts of a state (the artifacts with
// their payloads and metas, φ records in another layout than the one
// compactPhiRecord reads) as pyjson.Values straight from the scanner, equal
// to what pyjson.Parse builds, with fewer allocations. Like the scanner it
// gives up on what it does not handle (escaped strings, a repeated key, an
// object of more than maxBuiltMembers members), and RestoreBytes then
// takes the slow path.
type valueBuilder struct {
	s     *scanner
	stack []pyjson.Member // members of the objects being built
	items []pyjson.Value  // elements of the arrays being built
	mems  []pyjson.Member // free room for finished objects' members
	vals  []pyjson.Value  // free room for finished arrays' elements
	strs  [64]string      // interned strings
}

// maxBuiltMembers bounds the linear search for repeated keys.
const maxBuiltMembers = 64

func (b *valueBuilder) value() (pyjson.Value, bool) {
	switch c := b.s.peek(); c {
	case '"':
		str, ok := b.s.str()
		return pyjson.StringValue(b.intern(str)), ok
	case '{':
		return b.object()
	case '[':
		return b.array()
	case 't':
		return pyjson.BoolValue(true), b.s.lit("true")
	case 'f':
		return pyjson.BoolValue(false), b.s.lit("false")
	case 'n':
		return pyjson.NullValue(), b.s.lit("null")
	}
	n, ok := b.s.number()
	return numberValue(n), ok
}

// numberValue is the Value of a number, Python's int or float.
func numberValue(n pyjson.Number) pyjson.Value {
	if n.IsInt {
		return pyjson.IntValue(n.Int)
	}
	return pyjson.FloatValue(n.Float)
}

func (b *valueBuilder) object() (pyjson.Value, bool) {
	base := len(b.stack)
	ok := b.s.object(func(key []byte) bool {
		if len(b.stack)-base >= maxBuiltMembers {
			return false
		}
		for _, m := range b.stack[base:] {
			if m.Key == string(key) {
				return false // Python's dict rule is the slow path's
			}
		}
		v, ok := b.value()
		b.stack = append(b.stack, pyjson.Member{Key: b.intern(key), Value: v})
		return ok
	})
	ms := take(&b.mems, len(b.stack)-base, memberChunk)
	copy(ms, b.stack[base:])
	clear(b.stack[base:])
	b.stack = b.stack[:base]
	return pyjson.ObjectValue(ms), ok
}

func (b *valueBuilder) array() (pyjson.Value, bool) {
	base := len(b.items)
	ok := b.s.array(func(int) bool {
		v, ok := b.value()
		b.items = append(b.items, v)
		return ok
	})
	vs := take(&b.vals, len(b.items)-base, valueChunk)
	copy(vs, b.items[base:])
	clear(b.items[base:])
	b.items = b.items[:base]
	return pyjson.ArrayValue(vs), ok
}

// Chunk sizes for take: an artifact or φ record has a handful of members.
const (
	memberChunk = 128
	valueChunk  = 64
)

// take returns room for n elements, carved from the shared chunk *free
// (refilled with at least chunk elements): one allocation for many small
// objects or arrays. The slice's capacity is n, so an append to it cannot
// write over a neighbour.
func take[T any](free *[]T, n, chunk int) []T {
	if n == 0 {
		return nil
	}
	if len(*free) < n {
		*free = make([]T, max(n, chunk))
	}
	out := (*free)[:n:n]
	*free = (*free)[n:]
	return out
}

// intern returns str as a string, sharing a copy made earlier when the
// cache holds one: the φ log repeats the same ten keys a hundred times. The
// cache is direct-mapped on the length and the last byte, which tell the
// state's keys apart, and cheaper than a map lookup.
func (b *valueBuilder) intern(str []byte) string {
	if len(str) == 0 {
		return ""
	}
	slot := &b.strs[(len(str)*31+int(str[len(str)-1]))%len(b.strs)]
	if *slot == string(str) {
		return *slot
	}
	*slot = string(str)
	return *slot
}
