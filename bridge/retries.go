package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// maxRequestID is the longest request_id accepted, in bytes. A retried
// call with the same id and input returns the first answer (see
// workspace.Tx.FindRequest).
const maxRequestID = 256

// requestID returns the input's request_id, or "" when it has none.
func requestID(input pyjson.Value) (string, error) {
	v, ok := input.Get("request_id")
	if !ok || v.IsNull() {
		return "", nil
	}
	if v.Kind() != pyjson.String || v.Str() == "" || len(v.Str()) > maxRequestID {
		return "", badInput(fault.CodeWrongType, "send request_id as a non-empty string of at most 256 bytes",
			"field \"request_id\" must be a non-empty string of at most %d bytes", maxRequestID)
	}
	return v.Str(), nil
}
