package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Call is one operation with its arguments (flags, as an object) and its
// stdin input (an object, or null): exactly what the journal records and
// what a replay feeds back.
type Call struct {
	Op    string
	Args  pyjson.Value
	Input pyjson.Value
}
