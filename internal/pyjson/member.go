package pyjson

// The accessors below read one member of an object the way every reader of
// ucs's state reads one, as the reference's dict.get does: a missing member,
// or one of another kind, reads as empty, so a caller does not repeat the
// two-step Get for each field.

// StrOf returns the string of v's member key, "" when v is not an object,
// has no such member, or the member is not a string.
func (v Value) StrOf(key string) string {
	x, _ := v.Get(key)
	return x.Str()
}

// StrsOf returns the items of v's member key, an array, as strings: an item
// that is not a string reads as "". It is nil when the member is missing,
// not an array, or empty.
func (v Value) StrsOf(key string) []string {
	x, _ := v.Get(key)
	var out []string
	for _, it := range x.Items() {
		out = append(out, it.Str())
	}
	return out
}

// GetOr returns v's member key as stored, or def when v has no such member.
func (v Value) GetOr(key string, def Value) Value {
	if x, ok := v.Get(key); ok {
		return x
	}
	return def
}
