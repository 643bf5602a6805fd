package workspace

import (
	"bytes"
	"slices"
	"strings"
)

// JSON merge patches (RFC 7386) over compact JSON text, for the model
// log's merges: a model that changes one member of a large record writes
// that member only, and a lookup applies the few patches after the newest
// whole value. They work on raw bytes, not decoded values: a member that
// a patch does not touch keeps its bytes, a leaf a patch sets is the
// patch's bytes, so a number is never rounded through float64. An object a
// patch reaches is written canonically: its members sorted by name (byte
// order, decoded), each name once (the last, as JSON decoders keep it),
// names escaped as appendJSONString writes them. The same target and
// patch give the same bytes.

// A jsonMember is a member of a JSON object: its name, decoded, and its
// value's bytes.
type jsonMember struct {
	name  string
	value []byte
}

// isJSONObject reports whether compact JSON text is an object.
func isJSONObject(v []byte) bool { return len(v) > 0 && v[0] == '{' }

// objectMembers returns the members of a compact JSON object sorted by
// name, each name once (the last); false when v is not an object. Its
// input is JSON already checked (a value SetRecords took or the log's
// reader read), so it only finds where each member ends: a lookup may
// apply several patches to a large record.
func objectMembers(v []byte) ([]jsonMember, bool) {
	if !isJSONObject(v) {
		return nil, false
	}
	var ms []jsonMember
	sorted := true
	i := 1
	if i < len(v) && v[i] == '}' {
		return nil, true
	}
	for {
		end, ok := skipJSON(v, i)
		if !ok || end+1 >= len(v) || v[i] != '"' || v[end] != ':' {
			return nil, false
		}
		raw := v[i+1 : end-1]
		var name string
		if bytes.IndexByte(raw, '\\') >= 0 {
			s := jsonScanner{b: v, i: i}
			if _, _, ok := s.string(); !ok || s.i != end {
				return nil, false
			}
			name = unescapeJSON(raw)
		} else {
			name = string(raw)
		}
		from := end + 1
		if i, ok = skipJSON(v, from); !ok || i >= len(v) {
			return nil, false
		}
		if n := len(ms); n > 0 && ms[n-1].name >= name {
			sorted = false
		}
		ms = append(ms, jsonMember{name, v[from:i:i]})
		if v[i] == '}' {
			break
		}
		if v[i] != ',' {
			return nil, false
		}
		i++
	}
	if sorted {
		return ms, true
	}
	slices.SortStableFunc(ms, func(a, b jsonMember) int { return strings.Compare(a.name, b.name) })
	out := ms[:0]
	for i, m := range ms {
		if i+1 < len(ms) && ms[i+1].name == m.name {
			continue // a later member of the same name wins
		}
		out = append(out, m)
	}
	return out, true
}

// skipJSON returns where the compact JSON value at i ends; false when the
// text ends first.
func skipJSON(v []byte, i int) (int, bool) {
	depth := 0
	for i < len(v) {
		switch v[i] {
		case '"':
			for i++; i < len(v) && v[i] != '"'; i++ {
				if v[i] == '\\' {
					i++
				}
			}
			if i >= len(v) {
				return 0, false
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i, true
			}
			depth--
		case ',', ':':
			if depth == 0 {
				return i, true
			}
		}
		i++
		if depth == 0 && i < len(v) {
			switch v[i] {
			case ',', ':', '}', ']':
				return i, true
			}
		}
	}
	return i, depth == 0
}

// mergePatch returns target with patch applied (RFC 7386): a patch that
// is not an object replaces the target; an object patch applies to the
// target's members (to none when the target is not an object), each of
// its members replacing the member of that name, null removing it, an
// object merged into it recursively. Both are compact JSON; so is the
// result, in memory of its own when patch is an object.
func mergePatch(target, patch []byte) []byte {
	return appendMergePatch(make([]byte, 0, len(target)+len(patch)), target, patch)
}

func appendMergePatch(dst, target, patch []byte) []byte {
	pm, ok := objectMembers(patch)
	if !ok {
		return append(dst, patch...)
	}
	tm, _ := objectMembers(target)
	dst = append(dst, '{')
	first := true
	member := func(name string) {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendJSONString(dst, name)
		dst = append(dst, ':')
	}
	i, j := 0, 0
	for i < len(tm) || j < len(pm) {
		c := 0
		switch {
		case i >= len(tm):
			c = 1
		case j >= len(pm):
			c = -1
		default:
			c = strings.Compare(tm[i].name, pm[j].name)
		}
		if c < 0 { // the target's alone: as it was
			member(tm[i].name)
			dst = append(dst, tm[i].value...)
			i++
			continue
		}
		p := pm[j]
		var below []byte
		if c == 0 {
			below = tm[i].value
			i++
		}
		j++
		switch {
		case string(p.value) == "null":
		case isJSONObject(p.value):
			member(p.name)
			dst = appendMergePatch(dst, below, p.value)
		default:
			member(p.name)
			dst = append(dst, p.value...)
		}
	}
	return append(dst, '}')
}

// composePatches returns one patch that does what applying a and then b
// (both objects) does to any target, and false when there is none: where
// a removes a member or sets it to what is not an object and b then
// merges an object into it, the result no longer depends on the target's
// member, which no merge patch can say.
func composePatches(a, b []byte) ([]byte, bool) {
	return appendComposed(nil, a, b)
}

func appendComposed(dst, a, b []byte) ([]byte, bool) {
	am, ok1 := objectMembers(a)
	bm, ok2 := objectMembers(b)
	if !ok1 || !ok2 {
		return nil, false
	}
	dst = append(dst, '{')
	i, j := 0, 0
	for i < len(am) || j < len(bm) {
		if i > 0 || j > 0 {
			dst = append(dst, ',')
		}
		c := 0
		switch {
		case i >= len(am):
			c = 1
		case j >= len(bm):
			c = -1
		default:
			c = strings.Compare(am[i].name, bm[j].name)
		}
		switch {
		case c < 0:
			dst = appendJSONString(dst, am[i].name)
			dst = append(append(dst, ':'), am[i].value...)
			i++
		case c > 0 || !isJSONObject(bm[j].value):
			dst = appendJSONString(dst, bm[j].name)
			dst = append(append(dst, ':'), bm[j].value...)
			if c == 0 {
				i++
			}
			j++
		default: // both name it, and b merges an object into it
			if !isJSONObject(am[i].value) {
				return nil, false
			}
			dst = appendJSONString(dst, bm[j].name)
			dst = append(dst, ':')
			if dst, ok1 = appendComposed(dst, am[i].value, bm[j].value); !ok1 {
				return nil, false
			}
			i++
			j++
		}
	}
	return append(dst, '}'), true
}

// applyMerges returns base with the patches applied in order; base itself
// when there are none. A nil base (no value) is null.
func applyMerges(base []byte, merges [][]byte) []byte {
	for _, p := range merges {
		base = mergePatch(base, p)
	}
	return base
}
