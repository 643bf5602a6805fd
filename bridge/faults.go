package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// The short constructors bridge's operations call for the errors they
// return; the errors, their kinds and codes are fault's.

func badInput(code, hint, format string, args ...any) *fault.Error {
	return fault.BadInput(code, hint, format, args...)
}

func corrupt(err error, file string) *fault.Error { return fault.Corrupt(err, file) }

func internal(err error, format string, args ...any) *fault.Error {
	return fault.Internal(err, format, args...)
}

func unsupported(format string, args ...any) *fault.Error { return fault.Unsupported(format, args...) }
