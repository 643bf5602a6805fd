package policy

import (
	"fmt"
	"path"
	"strings"
)

// A Program is what a run of a capability would start: the first word of
// its command line, and where that resolves. The caller resolves it (this
// package touches no disk), as exec.LookPath does, and then runs exactly
// Path, so what was judged is what runs.
type Program struct {
	// Name is argv[0] as given.
	Name string
	// Path is the file Name resolves to, absolute and cleaned: for a bare
	// name (no "/") the file PATH finds (a PATH entry that is not absolute
	// is never used), for any other name the name made absolute against
	// the working directory. "" when it resolves to nothing, which runs
	// nothing.
	Path string
}

// Bare reports whether the program is named without a "/" and so found
// on PATH.
func (g Program) Bare() bool { return !strings.Contains(g.Name, "/") }

// scopes are the proc:exec scopes that name the program: its resolved
// path, and its name as given. A name scope ("ls", "git*") can cover only
// a bare name, the program PATH finds: "./ls" or "/tmp/x/ls" are not "ls".
// A path scope ("/usr/bin/ls", "/usr/bin/*", "./scripts") covers the
// resolved path, or a relative name as given.
func (g Program) scopes() []string {
	var out []string
	if g.Bare() {
		out = append(out, g.Name)
	} else if !strings.HasPrefix(g.Name, "/") {
		out = append(out, "./"+path.Clean(g.Name))
	}
	if g.Path != "" {
		out = append(out, g.Path)
	}
	return out
}

// need is the permission a run of the program needs, for Missing: by
// name for a bare name, else by its resolved path (by the name as given
// when it resolves to nothing). Bytes that are not UTF-8 become U+FFFD,
// so the permission can be written in JSON; it names the program for
// people, never for a decision.
func (g Program) need() Permission {
	scope := g.Name
	if !g.Bare() && g.Path != "" {
		scope = g.Path
	}
	return Permission{Domain: "proc", Action: "exec", Scope: strings.ToValidUTF8(scope, "\uFFFD")}
}

// execCovers reports whether one of perms, a proc:exec permission, covers
// a scope that names the program.
func execCovers(perms []Permission, g Program) bool {
	for _, p := range perms {
		if p.Domain != Wildcard && p.Domain != "proc" || p.Action != Wildcard && p.Action != "exec" {
			continue
		}
		for _, s := range g.scopes() {
			if p.Covers(Permission{Domain: "proc", Action: "exec", Scope: s}) {
				return true
			}
		}
	}
	return false
}

// CheckExec decides whether a capability that declares perms may run the
// program prog. With no policy everything runs (ReasonNoPolicy).
// Otherwise the capability must pass Check (every permission it declares
// granted, at least one declared), and then the program itself must be
// covered twice: by a proc:exec permission the capability declares, and
// by a grant. A capability that declares only fs:read runs no program; one
// that declares proc:exec:ls runs ls from PATH and nothing else. Missing
// then names the program's proc:exec permission (Program.need).
func (p *Policy) CheckExec(perms []Permission, prog Program) Decision {
	d := p.Check(perms)
	if p == nil || !d.Allowed {
		return d
	}
	need := prog.need()
	if !execCovers(perms, prog) {
		return Decision{Missing: []Permission{need},
			Reason: fmt.Sprintf("the capability declares no proc:exec permission that covers the program %s", prog.describe())}
	}
	if !execCovers(p.Grants, prog) {
		return Decision{Missing: []Permission{need},
			Reason: fmt.Sprintf("not granted: proc:exec for the program %s", prog.describe())}
	}
	return Decision{Allowed: true, Reason: fmt.Sprintf("%s, proc:exec covers the program %s", ReasonGranted, prog.describe())}
}

// describe names the program in a reason: quoted (bytes that are not
// UTF-8 escaped), with its resolved path when that says more.
func (g Program) describe() string {
	switch {
	case g.Path == "":
		return fmt.Sprintf("%q (not found)", g.Name)
	case g.Path != g.Name:
		return fmt.Sprintf("%q (%q)", g.Name, g.Path)
	}
	return fmt.Sprintf("%q", g.Name)
}
