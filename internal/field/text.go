package field

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// What a call may carry as text. Every string an operation receives is
// checked here, at the one boundary every channel passes (the command
// line's flags, stdin, a tool's arguments, a store's runner): it must be
// valid UTF-8, since the journal and the state are JSON and one invalid
// byte would make the workspace unreadable; it must fit its field's cap,
// since what a call stores every later call reads; and free text has its
// secrets redacted before anything stores it. The journal records the
// call as this leaves it, so a replay sees the redacted text; a replay of
// an event recorded before caps and redaction existed is not changed.

// The caps of fields that do not set Max, by type: an identifier, a name
// or a path is a string; an object is measured as its compact JSON.
const (
	StringCap = 4096
	ObjectCap = 64 << 10
	// MaxItems caps the items of a list of strings.
	MaxItems = 1024
)

// The caps of free-text fields.
const (
	ContextCap = 16 << 10 // a task's description
	TextCap    = 64 << 10 // a reflection, an outcome, an imported entry's text
	NoteCap    = 4096     // a note, a goal's content
	PhraseCap  = 1024     // a topic, a slot: a phrase
	TaskCap    = 256      // a task's id
)

// cap is the field's cap: characters of a string (or of each item of a
// list of strings), bytes of an object's compact JSON.
func (f *Field) cap() int {
	if f.Max > 0 {
		return f.Max
	}
	switch f.Type {
	case String, Strings:
		return StringCap
	case Object:
		return ObjectCap
	}
	return 0
}

// MaxLength is the cap a JSON Schema states as maxLength (a string's) or
// the cap of each item (a list of strings'); 0 where the schema cannot say
// it.
func (f *Field) MaxLength() int {
	if f.Type == String || f.Type == Strings {
		return f.cap()
	}
	return 0
}

// invalidUTF8 is the error of text that is not UTF-8, naming where it is.
func invalidUTF8(where string) error {
	return fault.BadInput(fault.CodeInvalidUTF8, "send text as UTF-8: "+where+" holds bytes that are not",
		"%s is not valid UTF-8", where)
}

// CheckUTF8 refuses a value of the caller's that is not valid UTF-8 (a
// flag, an argument, an environment variable), naming it.
func CheckUTF8(where, s string) error {
	if utf8.ValidString(s) {
		return nil
	}
	return invalidUTF8(where)
}

// CheckMembers refuses an object of a call (its flags if flags, its stdin
// members otherwise) any of whose strings, member names included, is not
// valid UTF-8, naming the field that holds it.
func CheckMembers(v pyjson.Value, inputs []Field, flags bool) error {
	for _, m := range v.Members() {
		if utf8.ValidString(m.Key) && validUTF8(m.Value) {
			continue
		}
		where := "field " + quote(strings.ToValidUTF8(m.Key, "\ufffd"))
		if i := slices.IndexFunc(inputs, func(f Field) bool { return f.Name == m.Key && f.Flag == flags }); i >= 0 {
			where = inputs[i].Label()
		}
		return invalidUTF8(where)
	}
	return nil
}

// validUTF8 checks every string and member name in v.
func validUTF8(v pyjson.Value) bool {
	switch v.Kind() {
	case pyjson.String:
		return utf8.ValidString(v.Str())
	case pyjson.Array:
		for _, it := range v.Items() {
			if !validUTF8(it) {
				return false
			}
		}
	case pyjson.Object:
		for _, m := range v.Members() {
			if !utf8.ValidString(m.Key) || !validUTF8(m.Value) {
				return false
			}
		}
	}
	return true
}

// checkText checks one field's value against its cap, and returns it with
// its secrets redacted when the field is free text (ok false: unchanged).
func (f *Field) checkText(x pyjson.Value) (pyjson.Value, bool, error) {
	limit := f.cap()
	switch f.Type {
	case String:
		if n := utf8.RuneCountInString(x.Str()); limit > 0 && n > limit {
			return x, false, f.tooLarge(n, limit, "characters")
		}
	case Strings:
		items := x.Items()
		if len(items) > MaxItems {
			return x, false, fault.BadInput(fault.CodeTooLarge, "send at most "+strconv.Itoa(MaxItems)+" items",
				"%s has %d items, more than the %d allowed", f.Label(), len(items), MaxItems)
		}
		for _, it := range items {
			if n := utf8.RuneCountInString(it.Str()); n > limit {
				return x, false, f.tooLarge(n, limit, "characters in an item")
			}
		}
	case Object, Objects:
		if f.Type == Object {
			if n := len(pyjson.AppendCompact(nil, x)); n > limit {
				return x, false, f.tooLarge(n, limit, "bytes of JSON")
			}
		}
		// No string inside an object is longer than the longest text field:
		// an imported entry is held to what reflect would have taken.
		if path, n := longString(x, f.Name, TextCap); path != "" && !f.Files {
			return x, false, fault.BadInput(fault.CodeTooLarge, "shorten it to at most "+strconv.Itoa(TextCap)+" characters",
				"%s has %d characters, more than the cap of %d for a text", path, n, TextCap)
		}
	}
	if !f.Text {
		return x, false, nil
	}
	red, changed := redact(x)
	return red, changed, nil
}

func (f *Field) tooLarge(n, limit int, unit string) error {
	return fault.BadInput(fault.CodeTooLarge, "shorten it to at most "+strconv.Itoa(limit)+" "+unit+
		" (say more in a reflection, or keep the rest in a file and name it)",
		"%s has %d %s, more than its cap of %d", f.Label(), n, unit, limit)
}

// longString finds a string in v longer than limit characters: its path
// below name (methodology[3].text) and its length; "" if there is none.
func longString(v pyjson.Value, name string, limit int) (string, int) {
	switch v.Kind() {
	case pyjson.String:
		if len(v.Str()) > limit { // bytes first: most strings are short
			if n := utf8.RuneCountInString(v.Str()); n > limit {
				return name, n
			}
		}
	case pyjson.Array:
		for i, it := range v.Items() {
			if p, n := longString(it, name+"["+strconv.Itoa(i)+"]", limit); p != "" {
				return p, n
			}
		}
	case pyjson.Object:
		for _, m := range v.Members() {
			if p, n := longString(m.Value, name+"."+m.Key, limit); p != "" {
				return p, n
			}
		}
	}
	return "", 0
}

// redact returns v with the secrets of every string in it redacted
// (outcome.Sanitize), and whether any was.
func redact(v pyjson.Value) (pyjson.Value, bool) {
	switch v.Kind() {
	case pyjson.String:
		s := outcome.Sanitize(v.Str())
		if s == v.Str() {
			return v, false
		}
		return pyjson.StringValue(s), true
	case pyjson.Array:
		items := v.Items()
		var out []pyjson.Value
		for i, it := range items {
			r, changed := redact(it)
			if changed && out == nil {
				out = append(make([]pyjson.Value, 0, len(items)), items[:i]...)
			}
			if out != nil {
				out = append(out, r)
			}
		}
		if out == nil {
			return v, false
		}
		return pyjson.ArrayValue(out), true
	case pyjson.Object:
		ms := v.Members()
		var out []pyjson.Member
		for i, m := range ms {
			r, changed := redact(m.Value)
			if changed && out == nil {
				out = append(make([]pyjson.Member, 0, len(ms)), ms[:i]...)
			}
			if out != nil {
				out = append(out, pyjson.KV(m.Key, r))
			}
		}
		if out == nil {
			return v, false
		}
		return pyjson.ObjectValue(out), true
	}
	return v, false
}

// Describe is the field's Doc, with its cap and its redaction where they
// concern what a caller writes (free text, or a cap of its own): what help,
// the command reference and a tool's schema say of the field.
func (f *Field) Describe() string {
	if !f.Text && f.Max == 0 {
		return f.Doc
	}
	var note string
	switch f.Type {
	case String:
		note = "at most " + strconv.Itoa(f.cap()) + " characters"
	case Strings:
		note = "each at most " + strconv.Itoa(f.cap()) + " characters"
	case Object:
		note = "at most " + sizeWords(f.cap()) + " of JSON"
	case Objects:
		note = "each text at most " + strconv.Itoa(TextCap) + " characters"
	}
	if f.Text {
		note += "; secrets redacted"
	}
	return f.Doc + " (" + note + ")"
}

// sizeWords says a number of bytes as people read it: 64 KiB, 16 MiB.
func sizeWords(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " bytes"
}
