package pgstore

import (
	"net/url"
	"strings"
)

// An UnavailableError is a store that cannot be reached or refuses the
// connection: the server is down or elsewhere, the database is missing,
// the user or password is wrong. The command line reports it with an
// exit code of its own (store_unavailable): it is the store's state or
// the caller's URL, never a bug, and nothing was changed.
type UnavailableError struct {
	Store string // the URL without its password
	Err   error  // the driver's error (it names no password)
}

func (e *UnavailableError) Error() string {
	return "cannot connect to the store " + e.Store + ": " + e.Err.Error()
}
func (e *UnavailableError) Unwrap() error { return e.Err }

// A URLError is a store URL the driver cannot parse.
type URLError struct {
	Store string // the URL without its password
	Err   error
}

func (e *URLError) Error() string {
	return "the store URL " + e.Store + " is not valid: " + e.Err.Error()
}
func (e *URLError) Unwrap() error { return e.Err }

// Redact is a store URL as an error may show it: its password, in the
// user part or as a password (or sslpassword) parameter, replaced by
// xxxxx. A URL that does not parse keeps only its scheme and what follows
// the user part, up to any parameters.
func Redact(raw string) string {
	const mask = "xxxxx"
	u, err := url.Parse(raw)
	if err != nil {
		scheme, rest, _ := strings.Cut(raw, "://")
		if i := strings.LastIndexByte(rest, '@'); i >= 0 {
			rest = rest[i+1:]
		}
		rest, _, _ = strings.Cut(rest, "?")
		return scheme + "://" + rest
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), mask)
	}
	if q := u.Query(); q.Has("password") || q.Has("sslpassword") {
		for _, k := range []string{"password", "sslpassword"} {
			if q.Has(k) {
				q.Set(k, mask)
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}
