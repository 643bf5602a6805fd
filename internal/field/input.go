package field

import (
	"strings"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// MaxInput is the largest stdin document accepted: an export of a
// long-lived agent fits with room to spare.
const MaxInput = 16 << 20

// ParseInput parses a command's stdin: exactly one JSON object.
func ParseInput(data []byte) (pyjson.Value, error) {
	if len(data) > MaxInput {
		return pyjson.Value{}, fault.BadInput(fault.CodeInputTooLarge, "send at most 16 MiB of JSON on stdin",
			"stdin holds %d bytes, more than the %d accepted", len(data), MaxInput)
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return pyjson.Value{}, fault.BadInput(fault.CodeEmptyInput, "send one JSON object on stdin, e.g. echo '{...}' | ucs report",
			"no JSON on stdin")
	}
	if !utf8.Valid(data) {
		return pyjson.Value{}, fault.BadInput(fault.CodeInvalidUTF8, "send UTF-8 text", "stdin is not valid UTF-8")
	}
	v, err := pyjson.Parse(data)
	if err != nil {
		return pyjson.Value{}, fault.BadInput(fault.CodeInvalidJSON, "send one JSON object on stdin", "stdin is not valid JSON: %v", err)
	}
	if v.Kind() != pyjson.Object {
		return pyjson.Value{}, fault.BadInput(fault.CodeInvalidInput, "send one JSON object on stdin, not "+v.Kind().Noun(),
			"stdin must be a JSON object, got %s", v.Kind().Noun())
	}
	return v, nil
}
