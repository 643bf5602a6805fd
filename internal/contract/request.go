package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// RequestIDField is the request_id of every operation that Retries.
var RequestIDField = field.Field{Name: "request_id", Type: field.String,
	Doc:    "an id of your choosing (at most 256 bytes): a call retried with the same id and input is applied once",
	Schema: []pyjson.Member{pyjson.KV("minLength", 1), pyjson.KV("maxLength", MaxRequestID)},
	Valid: func(x pyjson.Value, present bool) error {
		if !present {
			return nil
		}
		_, err := RequestID(pyjson.Obj(pyjson.KV("request_id", x)))
		return err
	}}

// MaxRequestID is the longest request_id accepted, in bytes. A retried
// call with the same id and input returns the first answer (see
// workspace.Tx.FindRequest).
const MaxRequestID = 256

// RequestID returns the input's request_id, or "" when it has none.
func RequestID(input pyjson.Value) (string, error) {
	v, ok := input.Get("request_id")
	if !ok || v.IsNull() {
		return "", nil
	}
	if v.Kind() != pyjson.String || v.Str() == "" || len(v.Str()) > MaxRequestID {
		return "", fault.BadInput(fault.CodeWrongType, "send request_id as a non-empty string of at most 256 bytes",
			"field \"request_id\" must be a non-empty string of at most %d bytes", MaxRequestID)
	}
	return v.Str(), nil
}
