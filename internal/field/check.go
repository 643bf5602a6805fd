package field

import (
	"slices"
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Apply checks one field's value x (present: neither absent nor null) and
// returns it as the call keeps it (changed false: as it was): the word an
// AnyCase enum lists for one spelled in another case, and free text with
// its secrets redacted. Its cap and its redaction are not applied when
// lenient: a replay runs an event as it was recorded, and an earlier ucs
// kept text that a cap or a redaction would now change.
func (f *Field) Apply(x pyjson.Value, present, lenient bool) (pyjson.Value, bool, error) {
	canon, err := f.Check(x, present)
	if err != nil {
		return x, false, err
	}
	out, changed := x, false
	if canon != "" {
		out, changed = pyjson.StringValue(canon), true
	}
	if present && !lenient {
		if y, redacted, err := f.checkText(x); err != nil {
			return x, false, err
		} else if redacted {
			out, changed = y, true
		}
	}
	return out, changed, nil
}

// Check checks one field's value (present: neither absent nor null). For
// a string of an enum spelled in another case it returns the word listed.
func (f *Field) Check(x pyjson.Value, present bool) (string, error) {
	if f.JSON && present {
		return "", f.checkJSON(x)
	}
	if f.Valid != nil {
		return "", f.Valid(x, present)
	}
	if !present {
		if f.Required {
			if f.Flag {
				return "", fault.BadInput(fault.CodeMissingField, "give "+f.Label()+": "+f.Doc, "%s is required", f.Label())
			}
			return "", fault.BadInput(fault.CodeMissingField, "add "+quote(f.Name)+" to the input", "required field %s is missing", quote(f.Name))
		}
		return "", nil
	}
	kind := x.Kind()
	ok := false
	switch f.Type {
	case String:
		ok = kind == pyjson.String
	case Int:
		ok = kind == pyjson.Int
	case Number:
		ok = kind == pyjson.Int || kind == pyjson.Float
	case Bool:
		ok = kind == pyjson.Bool
	case Object:
		ok = kind == pyjson.Object
	case Strings, Objects:
		ok = kind == pyjson.Array
	}
	if !ok {
		if f.Enum != nil {
			return "", fault.BadInput(fault.CodeWrongType, "use one of: "+strings.Join(f.Enum, ", "),
				"%s must be one of %s, got %s", f.Label(), strings.Join(f.Enum, ", "), kind.Noun())
		}
		name := f.Label()
		if !f.Flag {
			name = quote(f.Name)
		}
		return "", fault.BadInput(fault.CodeWrongType, name+" must be "+mustBe[f.Type].hint,
			"%s must be %s, got %s", f.Label(), mustBe[f.Type].msg, kind.Noun())
	}
	switch f.Type {
	case Strings, Objects:
		want, noun := pyjson.String, "a string"
		if f.Type == Objects {
			want, noun = pyjson.Object, "an object"
		}
		for i, it := range x.Items() {
			if it.Kind() != want {
				msg := f.Name + "[" + strconv.Itoa(i) + "] must be " + noun
				if f.Type == Strings {
					msg += ", got " + it.Kind().Noun()
				}
				return "", fault.BadInput(fault.CodeWrongType, quote(f.Name)+" must be "+mustBe[f.Type].hint, "%s", msg)
			}
		}
	case String:
		s := x.Str()
		if f.Enum != nil {
			for _, w := range f.Enum {
				if s == w {
					return "", nil
				}
			}
			for _, w := range f.Enum {
				if f.AnyCase && strings.EqualFold(s, w) {
					return w, nil
				}
			}
			return "", fault.BadInput(fault.CodeInvalidValue, "use one of: "+strings.Join(f.Enum, ", "),
				"%s is %s, not one of %s", f.Label(), quote(s), strings.Join(f.Enum, ", "))
		}
		if f.Required && strings.TrimSpace(s) == "" {
			if f.Flag {
				return "", fault.BadInput(fault.CodeMissingField, "give "+f.Label()+": "+f.Doc, "%s is required", f.Label())
			}
			return "", fault.BadInput(fault.CodeMissingField, "give "+quote(f.Name)+" a value", "required field %s is empty", quote(f.Name))
		}
	}
	return "", nil
}

// checkJSON checks a JSON field (Field.JSON): an object, or a string that
// is one's JSON text.
func (f *Field) checkJSON(x pyjson.Value) error {
	switch x.Kind() {
	case pyjson.Object:
		return nil
	case pyjson.String:
		if v, err := pyjson.Parse([]byte(x.Str())); err == nil && v.Kind() == pyjson.Object {
			return nil
		}
		return fault.BadInput(fault.CodeInvalidValue, "give "+f.Label()+" a JSON object, e.g. '{...}'", "%s is not the text of a JSON object", f.Label())
	}
	return fault.BadInput(fault.CodeWrongType, f.Label()+" must be a JSON object", "%s must be an object, got %s", f.Label(), x.Kind().Noun())
}

// ObjectOf reads the value of a JSON field (Field.JSON) as the object it
// holds: the object itself, or the one its text holds; false when it is
// absent (the zero Value) or null.
func ObjectOf(v pyjson.Value) (pyjson.Value, bool) {
	if v.IsNull() {
		return pyjson.Value{}, false
	}
	if v.Kind() == pyjson.String {
		p, err := pyjson.Parse([]byte(v.Str()))
		return p, err == nil
	}
	return v, true
}

// Complete returns obj with the field's Default when the field is absent
// or null in it; obj as it is otherwise. The member is added in key order,
// as a call's members are sorted: an operation sees the members in the
// order a replay of the journal gives them.
func (f *Field) Complete(obj pyjson.Value) pyjson.Value {
	if f.Default == nil {
		return obj
	}
	if x, ok := obj.Get(f.Name); ok && !x.IsNull() {
		return obj
	}
	ms := append(slices.Clip(obj.Members()), pyjson.KV(f.Name, f.Default))
	slices.SortStableFunc(ms, func(a, b pyjson.Member) int { return strings.Compare(a.Key, b.Key) })
	return pyjson.ObjectValue(ms)
}
