// Package fault is the error type of ucs: an Error has a Kind, which says
// what the caller should do and is the process's exit code, and a stable
// snake_case Code agents branch on. Every layer returns these (the
// storage package for a busy or corrupt workspace, the operations for bad
// input), so the command line maps any failure to its exit code in one
// place. Each code is a constant here (CodeInvalidValue), listed with its
// kind and meaning in Codes, from which docs/errors.md is generated; a test
// refuses a code written as a literal anywhere in the module.
package fault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// An Error is a failure the caller can act on. Every command reports one
// as {"error", "code", "hint"} on stdout and exits with Exit.
type Error struct {
	Kind Kind
	Code string // snake_case, stable: agents branch on it
	Msg  string // what went wrong
	Hint string // how to fix it
	Err  error  // the underlying error, if any
	// Details are further members of the JSON error, such as the
	// problems check found.
	Details []pyjson.Member
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// Is lets errors.Is(err, ErrBusy) match any error of that kind.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == "" && t.Kind == e.Kind
}

// A Kind groups errors by what the caller should do; each has its exit code.
type Kind int

// The kinds of error and their exit codes.
const (
	KindInternal       Kind = 1 // a bug or an I/O failure: report it
	KindBadInput       Kind = 2 // fix the call and retry
	KindNotInitialized Kind = 3 // run `ucs init`
	KindBusy           Kind = 4 // another process holds the workspace: retry later
	KindCorrupt        Kind = 5 // run `ucs check`
	// KindUnsupported: the workspace, or an event of its journal, is in a
	// format or names a learning model this ucs does not know (a newer ucs
	// wrote it): upgrade ucs. Never a sign of damage.
	KindUnsupported Kind = 6
	// KindStoreUnavailable: the store (a PostgreSQL server) cannot be
	// reached or refuses the connection: it is down, the URL names
	// another host, port or database, or the user or password is wrong.
	// Not a bug of ucs, and nothing was changed: fix the store or --store,
	// then retry.
	KindStoreUnavailable Kind = 7
)

// Sentinels for errors.Is.
var (
	ErrInternal         = &Error{Kind: KindInternal}
	ErrBadInput         = &Error{Kind: KindBadInput}
	ErrNotInitialized   = &Error{Kind: KindNotInitialized}
	ErrBusy             = &Error{Kind: KindBusy}
	ErrCorrupt          = &Error{Kind: KindCorrupt}
	ErrUnsupported      = &Error{Kind: KindUnsupported}
	ErrStoreUnavailable = &Error{Kind: KindStoreUnavailable}
)

// Exit is the process exit code for an error: 0 for nil, the kind's code for
// an *Error, 1 for anything else.
func Exit(err error) int {
	if err == nil {
		return 0
	}
	var e *Error
	if errors.As(err, &e) {
		return int(e.Kind)
	}
	return int(KindInternal)
}

// AsError wraps any error as an *Error (an internal one unless it is one).
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Kind: KindInternal, Code: CodeInternal, Msg: err.Error(),
		Hint: "this is a bug or an I/O failure; the workspace was left as it was", Err: err}
}

// BadInput is an error of the caller's input (exit 2).
func BadInput(code, hint, format string, args ...any) *Error {
	return &Error{Kind: KindBadInput, Code: code, Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// Corrupt is a damaged workspace file (exit 5), unless err says the file
// is of a newer format, which is no damage: then err itself.
func Corrupt(err error, file string) *Error {
	if e, ok := err.(*Error); ok && e.Kind == KindUnsupported {
		return e // not damage: a newer ucs wrote it
	}
	if e := notRegularOf(err); e != nil {
		return e // it names the file already
	}
	return &Error{Kind: KindCorrupt, Code: CodeWorkspaceCorrupt, Err: err,
		Msg:  fmt.Sprintf("%s: %v", file, err),
		Hint: "the file was not changed; run `ucs check` to see every problem and `ucs check --repair` to restore what can be restored"}
}

// Internal is a bug or an I/O failure (exit 1).
func Internal(err error, format string, args ...any) *Error {
	if e := notRegularOf(err); e != nil {
		return e // the damage, not the failed read, is what the caller must act on
	}
	return &Error{Kind: KindInternal, Code: CodeInternal, Err: err,
		Msg:  fmt.Sprintf(format, args...) + ": " + err.Error(),
		Hint: "this is a bug or an I/O failure; the workspace was left as it was"}
}

// errNotRegular marks the errors NotRegular makes.
var errNotRegular = errors.New("not a regular file")

// NotRegular is the error of a workspace file that is a symbolic link or
// another non-regular file (a directory, a named pipe, a device) where the
// workspace keeps a regular file or directory: damage (exit 5), never
// followed. A workspace may come from a shared folder, a tarball or a
// repository, and a link would make ucs read or write, even truncate, a
// file outside it. Internal and Corrupt keep this error as it is, so the
// I/O paths that wrap what they could not open still report the damage.
func NotRegular(path, what string) *Error {
	return &Error{Kind: KindCorrupt, Code: CodeWorkspaceCorrupt, Err: errNotRegular,
		Msg:  fmt.Sprintf("%s is %s where the workspace keeps its own file: ucs never reads or writes through it", path, what),
		Hint: "nothing was changed; replace it with the file or directory it stands for (or move it away), then run `ucs check`"}
}

// notRegularOf returns the NotRegular error err holds, or nil.
func notRegularOf(err error) *Error {
	var e *Error
	if errors.As(err, &e) && errors.Is(e.Err, errNotRegular) {
		return e
	}
	return nil
}

// NotInitialized is the error of a call on a workspace that has no state
// file (exit 3). It names the path looked at (absolute) and whether that
// directory exists, also as the members workspace and workspace_exists: a
// mistyped --workspace must not read as "run init". A root that is not a
// directory is a usage error instead (BadRoot).
func NotInitialized(root string) *Error {
	if err := BadRoot(root); err != nil {
		return err
	}
	abs := absPath(root)
	_, err := os.Stat(root)
	exists := err == nil
	e := &Error{Kind: KindNotInitialized, Code: CodeNotInitialized,
		Details: []pyjson.Member{pyjson.KV("workspace", abs), pyjson.KV("workspace_exists", exists)}}
	switch {
	case exists:
		e.Msg = fmt.Sprintf("the workspace %s is not initialized: the directory exists but holds no ucs/state/torusfield_state.json", abs)
		e.Hint = fmt.Sprintf("if your workspace is elsewhere, fix --workspace (or UCS_WORKSPACE); to start a new one here, run `ucs --workspace %s init`", shellQuote(abs))
	case errors.Is(err, fs.ErrNotExist):
		e.Msg = fmt.Sprintf("no workspace at %s: the directory does not exist", abs)
		e.Hint = fmt.Sprintf("check --workspace (or UCS_WORKSPACE; default ~/.ucs) for a typo; run `ucs --workspace %s init` only to start a new, empty workspace there", shellQuote(abs))
	default:
		e.Msg = fmt.Sprintf("no workspace readable at %s: %v", abs, err)
		e.Hint = "check the permissions of the path, and --workspace (or UCS_WORKSPACE) for a typo"
	}
	return e
}

// BadRoot returns a usage error when root cannot be a workspace because it,
// or a directory above it, is a file; nil otherwise.
func BadRoot(root string) *Error {
	fi, err := os.Stat(root)
	file := root
	switch {
	case err == nil && fi.IsDir():
		return nil
	case err == nil:
	case errors.Is(err, syscall.ENOTDIR):
		// A directory above root is a file: name the nearest one.
		for file = filepath.Dir(root); file != filepath.Dir(file); file = filepath.Dir(file) {
			if fi, err := os.Stat(file); err == nil && !fi.IsDir() {
				break
			}
		}
	default:
		return nil
	}
	msg := fmt.Sprintf("the workspace path %s is a file, not a directory", absPath(root))
	if file != root {
		msg = fmt.Sprintf("the workspace path %s lies under %s, which is a file, not a directory", absPath(root), absPath(file))
	}
	return &Error{Kind: KindBadInput, Code: CodeUsage, Msg: msg,
		Hint:    "give --workspace (or UCS_WORKSPACE) a directory: an existing workspace, or a new path for `ucs init`",
		Details: []pyjson.Member{pyjson.KV("workspace", absPath(root))}}
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// shellQuote quotes a path for a command line shown in a hint, when it
// needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Unsupported is a workspace or event that a newer ucs wrote (exit 6).
func Unsupported(format string, args ...any) *Error {
	return &Error{Kind: KindUnsupported, Code: CodeUnsupportedVersion, Msg: fmt.Sprintf(format, args...),
		Hint: "a newer ucs wrote this; upgrade ucs (the workspace was not changed)"}
}

// QuotePath is a path made absolute and quoted for a command line shown in
// a hint.
func QuotePath(p string) string { return shellQuote(absPath(p)) }
