package bridge

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// MaxInput is the largest stdin document accepted: an export of a
// long-lived agent fits with room to spare.
const MaxInput = 16 << 20

// ParseInput parses a command's stdin: exactly one JSON object.
func ParseInput(data []byte) (pyjson.Value, error) {
	if len(data) > MaxInput {
		return pyjson.Value{}, badInput(fault.CodeInputTooLarge, "send at most 16 MiB of JSON on stdin",
			"stdin holds %d bytes, more than the %d accepted", len(data), MaxInput)
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return pyjson.Value{}, badInput(fault.CodeEmptyInput, "send one JSON object on stdin, e.g. echo '{...}' | ucs report",
			"no JSON on stdin")
	}
	if !utf8.Valid(data) {
		return pyjson.Value{}, badInput(fault.CodeInvalidUTF8, "send UTF-8 text", "stdin is not valid UTF-8")
	}
	v, err := pyjson.Parse(data)
	if err != nil {
		return pyjson.Value{}, badInput(fault.CodeInvalidJSON, "send one JSON object on stdin", "stdin is not valid JSON: %v", err)
	}
	if v.Kind() != pyjson.Object {
		return pyjson.Value{}, badInput(fault.CodeInvalidInput, "send one JSON object on stdin, not "+v.Kind().Noun(),
			"stdin must be a JSON object, got %s", v.Kind().Noun())
	}
	return v, nil
}

// Outcomes and significances of a report, as the reference defines them.
var (
	outcomes      = statusWords(outcome.Reported...)
	significances = []string{"routine", "notable", "critical"}
	reflectTypes  = []string{"post_task", "annotation", "experiment", "dead_end", "synthesis"}
)

// statusWords are the words of statuses, for a field's Enum.
func statusWords(statuses ...outcome.Status) []string {
	words := make([]string, len(statuses))
	for i, s := range statuses {
		words[i] = s.String()
	}
	return words
}

// taskID checks a task id an agent sent: no control characters, which
// v5's keys use to join their parts (a task id holding one could name
// another task's evidence).
func taskID(key, id string) error {
	for _, r := range id {
		if unicode.IsControl(r) {
			return badInput(fault.CodeInvalidValue, "a task id is plain text", "field %q holds a control character", key)
		}
	}
	return nil
}
