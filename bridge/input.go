package bridge

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// MaxInput is the largest stdin document accepted: an export of a
// long-lived agent fits with room to spare.
const MaxInput = 16 << 20

// ParseInput parses a command's stdin: exactly one JSON object.
func ParseInput(data []byte) (pyjson.Value, error) {
	if len(data) > MaxInput {
		return pyjson.Value{}, badInput("input_too_large", "send at most 16 MiB of JSON on stdin",
			"stdin holds %d bytes, more than the %d accepted", len(data), MaxInput)
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return pyjson.Value{}, badInput("empty_input", "send one JSON object on stdin, e.g. echo '{...}' | ucs report",
			"no JSON on stdin")
	}
	if !utf8.Valid(data) {
		return pyjson.Value{}, badInput("invalid_utf8", "send UTF-8 text", "stdin is not valid UTF-8")
	}
	v, err := pyjson.Parse(data)
	if err != nil {
		return pyjson.Value{}, badInput("invalid_json", "send one JSON object on stdin", "stdin is not valid JSON: %v", err)
	}
	if v.Kind() != pyjson.Object {
		return pyjson.Value{}, badInput("invalid_input", "send one JSON object on stdin, not "+v.Kind().Noun(),
			"stdin must be a JSON object, got %s", v.Kind().Noun())
	}
	return v, nil
}

// fields reads typed fields of an input object and collects the first
// problem, so a decoder reads straight down its fields.
type fields struct {
	v   pyjson.Value
	err *Error
}

func (f *fields) fail(code, hint, format string, args ...any) {
	if f.err == nil {
		f.err = badInput(code, hint, format, args...)
	}
}

// str reads a string field; required fields must be present and non-empty.
func (f *fields) str(key string, required bool, def string) string {
	x, ok := f.v.Get(key)
	if !ok || x.IsNull() {
		if required {
			f.fail("missing_field", "add \""+key+"\" to the input", "required field %q is missing", key)
		}
		return def
	}
	if x.Kind() != pyjson.String {
		f.fail("wrong_type", "\""+key+"\" must be a JSON string", "field %q must be a string, got %s", key, x.Kind().Noun())
		return def
	}
	if required && strings.TrimSpace(x.Str()) == "" {
		f.fail("missing_field", "give \""+key+"\" a value", "required field %q is empty", key)
	}
	return x.Str()
}

// enum reads a string field that must be one of allowed.
func (f *fields) enum(key, def string, allowed ...string) string {
	s := f.str(key, false, def)
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	f.fail("invalid_value", "use one of: "+strings.Join(allowed, ", "),
		"field %q is %q, not one of %s", key, s, strings.Join(allowed, ", "))
	return def
}

// strs reads a list of strings; null and absent give nil.
func (f *fields) strs(key string) []string {
	x, ok := f.v.Get(key)
	if !ok || x.IsNull() {
		return nil
	}
	if x.Kind() != pyjson.Array {
		f.fail("wrong_type", "\""+key+"\" must be a list of strings", "field %q must be a list of strings, got %s", key, x.Kind().Noun())
		return nil
	}
	out := make([]string, 0, len(x.Items()))
	for i, it := range x.Items() {
		if it.Kind() != pyjson.String {
			f.fail("wrong_type", "\""+key+"\" must be a list of strings", "%s[%d] must be a string, got %s", key, i, it.Kind().Noun())
			return nil
		}
		out = append(out, it.Str())
	}
	return out
}

// object reads an optional object field.
func (f *fields) object(key string) (pyjson.Value, bool) {
	x, ok := f.v.Get(key)
	if !ok || x.IsNull() {
		return x, false
	}
	if x.Kind() != pyjson.Object {
		f.fail("wrong_type", "\""+key+"\" must be a JSON object", "field %q must be an object, got %s", key, x.Kind().Noun())
		return x, false
	}
	return x, true
}

// capability checks a capability name an agent sent: no control characters.
func (f *fields) capability(key, name string) {
	for _, r := range name {
		if unicode.IsControl(r) {
			f.fail("invalid_value", "capability names are plain text", "field %q holds a control character", key)
			return
		}
	}
}

// Outcomes and significances of a report, as the reference defines them.
var (
	outcomes      = []string{"success", "partial", "neutral", "failure"}
	significances = []string{"routine", "notable", "critical"}
	reflectTypes  = []string{"post_task", "annotation", "experiment", "dead_end", "synthesis"}
)

type reportInput struct {
	Action, Outcome, Success, Significance, Context string
	Reasoning                                       pyjson.Value // object, or Null
	HasReasoning                                    bool
}

func decodeReport(v pyjson.Value) (reportInput, error) {
	f := fields{v: v}
	in := reportInput{
		Action:       f.str("action", true, ""),
		Outcome:      f.str("outcome", false, ""),
		Success:      f.enum("success", "neutral", outcomes...),
		Significance: f.enum("significance", "routine", significances...),
		Context:      f.str("context", false, ""),
	}
	f.capability("action", in.Action)
	in.Reasoning, in.HasReasoning = f.object("reasoning_trace")
	if in.HasReasoning && len(in.Reasoning.Members()) == 0 {
		in.HasReasoning = false // the reference treats {} as no trace
	}
	if f.err != nil {
		return in, f.err
	}
	return in, nil
}

type reflectInput struct {
	Type, Text, ArtifactID, FailureCondition string
	Capabilities, Keywords                   []string
	GeneralizedPattern                       string
	Topic, WhyClosed, ReopenConditions       string
}

func decodeReflect(v pyjson.Value) (reflectInput, error) {
	f := fields{v: v}
	in := reflectInput{
		Type:               f.enum("type", "post_task", reflectTypes...),
		Text:               f.str("text", true, ""),
		ArtifactID:         f.str("artifact_id", false, ""),
		FailureCondition:   f.str("failure_condition", false, ""),
		Capabilities:       f.strs("capabilities"),
		Keywords:           f.strs("keywords"),
		GeneralizedPattern: f.str("generalized_pattern", false, ""),
		Topic:              f.str("topic", false, ""),
		WhyClosed:          f.str("why_closed", false, ""),
		ReopenConditions:   f.str("reopen_conditions", false, ""),
	}
	for _, c := range in.Capabilities {
		f.capability("capabilities", c)
	}
	if in.Type == "annotation" && in.ArtifactID == "" {
		f.fail("missing_field", "name the artifact to annotate: an id from a report's new_artifacts or unannotated_artifacts, or from resume's top_wormholes",
			"an annotation needs \"artifact_id\"")
	}
	if f.err != nil {
		return in, f.err
	}
	return in, nil
}

// argString reads a string argument of a call.
func argString(c Call, key string) string {
	v, _ := c.Args.Get(key)
	return v.Str()
}

// argStrings reads a list-of-strings argument of a call.
func argStrings(c Call, key string) []string {
	v, _ := c.Args.Get(key)
	var out []string
	for _, it := range v.Items() {
		out = append(out, it.Str())
	}
	return out
}

func argBool(c Call, key string) bool {
	v, _ := c.Args.Get(key)
	return v.Bool()
}

func checkReport(c Call) error {
	_, err := decodeReport(c.Input)
	return err
}

func checkReflect(c Call) error {
	_, err := decodeReflect(c.Input)
	return err
}

func checkConsult(c Call) error {
	if strings.TrimSpace(argString(c, "context")) == "" {
		return badInput("missing_field", "describe the task: ucs consult --context \"...\"", "--context is required")
	}
	return nil
}

// checkImport checks the package's shape; the entries are checked as they
// are merged.
func checkImport(c Call) error {
	if format := strField(c.Input, "format"); !strings.HasPrefix(format, "ucs_cognitive_export") {
		return badInput("invalid_value", "pipe the output of `ucs export` (format "+ExportFormat+")",
			"unknown export format %q", format)
	}
	return nil
}
