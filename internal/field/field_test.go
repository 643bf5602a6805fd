package field

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestApply: one field's value is checked against its type, its words
// and its cap, with the code, message and hint a caller sees, and comes
// back as the call keeps it.
func TestApply(t *testing.T) {
	success := Field{Name: "success", Type: String, Enum: []string{"success", "failure"}, AnyCase: true}
	note := Field{Name: "note", Type: String, Flag: true, Text: true, Max: 8, Doc: "why"}
	for _, c := range []struct {
		name    string
		f       Field
		in      string // JSON; "" is absent
		lenient bool
		want    string // the value kept, as compact JSON; "" when unchanged
		code    string
		msg     string
		hint    string
	}{
		{name: "a word", f: success, in: `"success"`},
		{name: "a word in another case", f: success, in: `"FAILURE"`, want: `"failure"`},
		{name: "no word", f: success, in: `"ok"`, code: fault.CodeInvalidValue,
			msg: `field "success" is "ok", not one of success, failure`, hint: "use one of: success, failure"},
		{name: "an enum of another type", f: success, in: `true`, code: fault.CodeWrongType,
			msg: `field "success" must be one of success, failure, got a bool`},
		{name: "a required flag absent", f: Field{Name: "context", Type: String, Flag: true, Required: true, Doc: "the task"},
			code: fault.CodeMissingField, msg: "--context is required", hint: "give --context: the task"},
		{name: "a required member blank", f: Field{Name: "action", Type: String, Required: true}, in: `" "`,
			code: fault.CodeMissingField, msg: `required field "action" is empty`, hint: `give "action" a value`},
		{name: "an integer", f: Field{Name: "seq", Type: Int, Flag: true}, in: `1.5`, code: fault.CodeWrongType,
			msg: "--seq must be an integer, got a float", hint: "--seq must be a JSON integer"},
		{name: "a list of strings", f: Field{Name: "tags", Type: Strings}, in: `["a", 1]`, code: fault.CodeWrongType,
			msg: "tags[1] must be a string, got an int"},
		{name: "text at its cap", f: note, in: `"12345678"`},
		{name: "text over it", f: note, in: `"123456789"`, code: fault.CodeTooLarge,
			msg: "--note has 9 characters, more than its cap of 8"},
		{name: "text over it, replayed", f: note, in: `"123456789"`, lenient: true},
		{name: "a secret", f: Field{Name: "note", Type: String, Text: true}, in: `"key sk-proj-Abc123def456ghi789jkl012mno345"`,
			want: `"key sk-proj-[REDACTED]"`},
		{name: "a JSON field's text", f: Field{Name: "policy", Type: String, Flag: true, JSON: true}, in: `"[1]"`,
			code: fault.CodeInvalidValue, msg: "--policy is not the text of a JSON object"},
		{name: "Valid replaces the checks", f: Field{Name: "x", Type: Int, Required: true, Valid: func(pyjson.Value, bool) error { return nil }}},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := pyjson.Value{}
			if c.in != "" {
				var err error
				x, err = pyjson.Parse([]byte(c.in))
				require.NoError(t, err)
			}
			y, changed, err := c.f.Apply(x, c.in != "", c.lenient)
			if c.code != "" {
				var e *fault.Error
				require.ErrorAs(t, err, &e)
				assert.Equal(t, c.code, e.Code)
				assert.Equal(t, c.msg, e.Msg)
				if c.hint != "" {
					assert.Equal(t, c.hint, e.Hint)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want != "", changed)
			if c.want != "" {
				assert.Equal(t, c.want, string(pyjson.AppendCompact(nil, y)))
			}
		})
	}
}

// TestCheckMembers: text that is not UTF-8 is refused, naming the field
// as the caller wrote it, or the member when it is no field.
func TestCheckMembers(t *testing.T) {
	inputs := []Field{{Name: "context", Type: String, Flag: true}, {Name: "action", Type: String}}
	for _, c := range []struct {
		v     pyjson.Value
		flags bool
		msg   string
	}{
		{pyjson.Obj(pyjson.KV("context", "a\xffb")), true, "--context is not valid UTF-8"},
		{pyjson.Obj(pyjson.KV("action", []string{"\xff"})), false, `field "action" is not valid UTF-8`},
		{pyjson.Obj(pyjson.KV("x\xff", "y")), false, "field \"x\ufffd\" is not valid UTF-8"},
	} {
		err := CheckMembers(c.v, inputs, c.flags)
		var e *fault.Error
		require.ErrorAs(t, err, &e, c.msg)
		assert.Equal(t, fault.CodeInvalidUTF8, e.Code)
		assert.Equal(t, c.msg, e.Msg)
	}
	assert.NoError(t, CheckMembers(pyjson.Obj(pyjson.KV("context", "é")), inputs, true))
}

// TestComplete: a default fills an absent member, in key order, and
// never one that is there.
func TestComplete(t *testing.T) {
	f := Field{Name: "m", Type: Int, Default: 5}
	for _, c := range []struct{ in, want string }{
		{`null`, `{"m":5}`},
		{`{"a":1,"z":2}`, `{"a":1,"m":5,"z":2}`},
		{`{"m":1}`, `{"m":1}`},
	} {
		v, err := pyjson.Parse([]byte(c.in))
		require.NoError(t, err)
		assert.Equal(t, c.want, string(pyjson.AppendCompact(nil, f.Complete(v))), c.in)
	}
	none := Field{Name: "m", Type: Int}
	assert.True(t, none.Complete(pyjson.NullValue()).IsNull(), "no default: unchanged")
}

// TestObjectOf: a JSON field holds its object, given as the object or as
// its text.
func TestObjectOf(t *testing.T) {
	_, ok := ObjectOf(pyjson.Value{})
	assert.False(t, ok, "absent")
	v, ok := ObjectOf(pyjson.StringValue(`{"a": 1}`))
	assert.True(t, ok)
	assert.Equal(t, `{"a":1}`, string(pyjson.AppendCompact(nil, v)))
	_, ok = ObjectOf(pyjson.StringValue(`{`))
	assert.False(t, ok, "text that does not parse")
}

// TestToolErrorLabels: over a list of fields, a tool's error names the
// flags as arguments, whole words only.
func TestToolErrorLabels(t *testing.T) {
	inputs := []Field{{Name: "from", Flag: true}, {Name: "from_snapshot", Flag: true}, {Name: "text"}}
	err := ToolError(fault.BadInput(fault.CodeMissingField, "give --from-snapshot, not --fromage", "--from is required"), inputs)
	var e *fault.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, `argument "from" is required`, e.Msg)
	assert.Equal(t, `give argument "from_snapshot", not --fromage`, e.Hint)
	plain := fault.BadInput(fault.CodeMissingField, "h", "m")
	assert.Same(t, plain, ToolError(plain, []Field{{Name: "text"}}).(*fault.Error), "no flags: the error as it was")
}

// TestInputSchemaLengths: Schema's keywords stand where the cap's
// maxLength would, and a cap of its own is stated otherwise.
func TestInputSchemaLengths(t *testing.T) {
	inputs := []Field{
		{Name: "id", Type: String, Doc: "an id", Schema: []pyjson.Member{pyjson.KV("minLength", 1), pyjson.KV("maxLength", 256)}},
		{Name: "note", Type: String, Text: true, Max: 8, Doc: "why"},
		{Name: "policy", Type: String, JSON: true, Doc: "a policy"},
	}
	got := string(pyjson.AppendCompact(nil, InputSchema("t", "d", inputs, false, true)))
	assert.Equal(t, `{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"t","description":"d","type":"object","properties":{`+
		`"id":{"type":"string","minLength":1,"maxLength":256,"description":"an id"},`+
		`"note":{"type":"string","maxLength":8,"description":"why (at most 8 characters; secrets redacted)"},`+
		`"policy":{"type":"object","maxLength":4096,"description":"a policy"}},"additionalProperties":false}`, got)
	assert.True(t, strings.Contains(string(pyjson.AppendCompact(nil, InputSchema("t", "d", inputs[2:], true, false))), `"policy":{"type":"string","maxLength":4096`),
		"not a tool: a JSON field is its text")
}

// FuzzApply: no value of any field's type makes a check panic, and what
// passes is valid UTF-8 no longer than its cap.
func FuzzApply(f *testing.F) {
	f.Add(`"x"`, uint8(String), true)
	f.Add(`["a", "b"]`, uint8(Strings), false)
	f.Add(`{"a": "sk-proj-Abc123def456ghi789jkl012mno345"}`, uint8(Object), true)
	f.Fuzz(func(t *testing.T, in string, typ uint8, text bool) {
		x, err := pyjson.Parse([]byte(in))
		if err != nil {
			return
		}
		fl := Field{Name: "f", Type: Type(typ % uint8(List)), Text: text, Max: 16}
		y, _, err := fl.Apply(x, !x.IsNull(), false)
		if err != nil {
			return
		}
		if fl.Type == String && len([]rune(y.Str())) > 16 {
			t.Fatalf("%s passed over its cap", in)
		}
	})
}
