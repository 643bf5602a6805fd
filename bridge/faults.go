package bridge

import "github.com/unified-cognitive-substrate/ucs/internal/fault"

// An Error is a failure the caller can act on. Every command reports one
// as {"error", "code", "hint"} on stdout and exits with Exit. It is
// fault.Error: the storage layer returns the same errors.
type Error = fault.Error

// A Kind groups errors by what the caller should do; each has its exit code.
type Kind = fault.Kind

// The kinds of error and their exit codes (see fault).
const (
	KindInternal         = fault.KindInternal
	KindBadInput         = fault.KindBadInput
	KindNotInitialized   = fault.KindNotInitialized
	KindBusy             = fault.KindBusy
	KindCorrupt          = fault.KindCorrupt
	KindUnsupported      = fault.KindUnsupported
	KindStoreUnavailable = fault.KindStoreUnavailable
)

// Sentinels for errors.Is.
var (
	ErrInternal         = fault.ErrInternal
	ErrBadInput         = fault.ErrBadInput
	ErrNotInitialized   = fault.ErrNotInitialized
	ErrBusy             = fault.ErrBusy
	ErrCorrupt          = fault.ErrCorrupt
	ErrUnsupported      = fault.ErrUnsupported
	ErrStoreUnavailable = fault.ErrStoreUnavailable
)

// Exit is the process exit code for an error: 0 for nil, the kind's code for
// an *Error, 1 for anything else.
func Exit(err error) int { return fault.Exit(err) }

// AsError wraps any error as an *Error (an internal one unless it is one).
func AsError(err error) *Error { return fault.AsError(err) }

func badInput(code, hint, format string, args ...any) *Error {
	return fault.BadInput(code, hint, format, args...)
}

func corrupt(err error, file string) *Error { return fault.Corrupt(err, file) }

func internal(err error, format string, args ...any) *Error {
	return fault.Internal(err, format, args...)
}

func unsupported(format string, args ...any) *Error { return fault.Unsupported(format, args...) }
