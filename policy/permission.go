package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Permission is one right, domain:action:scope: "fs:read:./src" reads
// files under ./src, "net:http:get" makes HTTP GET requests. Domain and
// action are lowercase names of Domains; a grant may put "*" in any part
// ("*:*:*" grants everything). A scope ending in "*" is a prefix wildcard
// ("./src/*"); see Covers for how scopes match.
type Permission struct{ Domain, Action, Scope string }

// A Domain is a kind of resource and the actions on it that a permission
// may name.
type Domain struct {
	Name    string
	Actions []string
	Doc     string // what the domain covers and what its scope names
}

// Domains are the domains and actions a permission may name, sorted by
// name. A permission naming any other is an error.
var Domains = []Domain{
	{Name: "env", Actions: []string{"read"},
		Doc: "environment variables; the scope is a variable name or *"},
	{Name: "fs", Actions: []string{"read", "write", "delete"},
		Doc: "files; the scope is a path (covering everything under it), a path prefix ending in *, or *"},
	{Name: "msg", Actions: []string{"send"},
		Doc: "messages to people or other agents; the scope is a channel or *"},
	{Name: "net", Actions: []string{"http", "connect", "dns"},
		Doc: "the network; the scope is an HTTP method (get, post, ...) or a host, compared without case, or *"},
	{Name: "proc", Actions: []string{"exec", "signal"},
		Doc: "processes; the scope is a program name or *"},
	{Name: "secret", Actions: []string{"read"},
		Doc: "secrets (keys, tokens); the scope is a secret's name or *"},
	{Name: "vcs", Actions: []string{"read", "write"},
		Doc: "version control; the scope is a repository path or *"},
}

// MaxPermissionLen is the longest permission string ParsePermission
// accepts, in bytes.
const MaxPermissionLen = 256

// Wildcard is the part of a permission that stands for any value.
const Wildcard = "*"

// ParsePermission parses domain:action:scope. It rejects anything but
// three non-empty parts; a domain or action that is not a lowercase name
// ([a-z][a-z0-9_]*) or "*"; a domain or action that Domains does not know
// (the error lists those it knows); a scope with white space, control or
// other unprintable characters or invalid UTF-8; and strings longer than
// MaxPermissionLen bytes. A parsed permission's String is the input.
func ParsePermission(s string) (Permission, error) {
	fail := func(msg string) (Permission, error) {
		return Permission{}, fmt.Errorf("permission %q: %s", s, msg)
	}
	if len(s) > MaxPermissionLen {
		return Permission{}, fmt.Errorf("permission %.40q...: longer than %d bytes", s, MaxPermissionLen)
	}
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return fail(fmt.Sprintf("want domain:action:scope, got %d part(s) separated by ':'", len(parts)))
	}
	p := Permission{Domain: parts[0], Action: parts[1], Scope: parts[2]}
	for _, f := range []struct{ what, s string }{{"domain", p.Domain}, {"action", p.Action}} {
		if err := checkName(f.s); err != nil {
			return fail(f.what + " " + err.Error())
		}
	}
	if err := checkScope(p.Scope); err != nil {
		return fail("scope " + err.Error())
	}
	if err := checkKnown(p.Domain, p.Action); err != nil {
		return fail(err.Error())
	}
	return p, nil
}

// MustParsePermission is ParsePermission for permissions written in code;
// it panics on an error.
func MustParsePermission(s string) Permission {
	p, err := ParsePermission(s)
	if err != nil {
		panic(err)
	}
	return p
}

// String returns domain:action:scope.
func (p Permission) String() string { return p.Domain + ":" + p.Action + ":" + p.Scope }

// IsWildcard reports whether the domain or the action is "*": a grant may
// say so, a capability's need may not.
func (p Permission) IsWildcard() bool { return p.Domain == Wildcard || p.Action == Wildcard }

// checkName accepts "*" and [a-z][a-z0-9_]*.
func checkName(s string) error {
	if s == "" {
		return errors.New("is empty")
	}
	if s == Wildcard {
		return nil
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || i > 0 && (c >= '0' && c <= '9' || c == '_') {
			continue
		}
		return fmt.Errorf("%q must be * or a lowercase name ([a-z][a-z0-9_]*)", s)
	}
	return nil
}

// checkScope accepts printable text without white space (the ':' is the
// caller's separator and never reaches here).
func checkScope(s string) error {
	if s == "" {
		return errors.New("is empty")
	}
	if !utf8.ValidString(s) {
		return errors.New("is not valid UTF-8")
	}
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			return fmt.Errorf("must not contain white space (%U)", r)
		case !unicode.IsPrint(r):
			return fmt.Errorf("must not contain control or unprintable characters (%U)", r)
		}
	}
	return nil
}

// checkKnown checks domain and action against Domains; "*" stands for any
// domain, and an action under the domain "*" must be one some domain has.
func checkKnown(domain, action string) error {
	if domain == Wildcard {
		if action == Wildcard {
			return nil
		}
		var all []string
		for _, d := range Domains {
			if slices.Contains(d.Actions, action) {
				return nil
			}
			all = append(all, d.Actions...)
		}
		slices.Sort(all)
		return fmt.Errorf("unknown action %q (known: *, %s)", action, strings.Join(slices.Compact(all), ", "))
	}
	d, ok := lookupDomain(domain)
	if !ok {
		names := make([]string, len(Domains))
		for i, d := range Domains {
			names[i] = d.Name
		}
		return fmt.Errorf("unknown domain %q (known: *, %s)", domain, strings.Join(names, ", "))
	}
	if action != Wildcard && !slices.Contains(d.Actions, action) {
		return fmt.Errorf("unknown action %q for domain %q (known: *, %s)", action, domain, strings.Join(d.Actions, ", "))
	}
	return nil
}

func lookupDomain(name string) (Domain, bool) {
	for _, d := range Domains {
		if d.Name == name {
			return d, true
		}
	}
	return Domain{}, false
}
