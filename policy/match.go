package policy

import (
	"path"
	"strings"
)

// Covers reports whether the grant g covers the permission p a capability
// needs. Domain and action must be equal, or "*" in the grant. Then the
// scopes:
//
//   - a grant scope "*" covers any scope;
//   - a grant scope that is a path (it starts with ".", "/" or "~", or any
//     scope of the domains fs and vcs) covers that path and everything
//     under it: "./src" covers "./src/a.go" and
//     "src/a.go" but not "./srcx" nor "./src/../etc"; "./src/*" covers only
//     what is under ./src, and "./src/a*" what is under ./src with a name
//     starting with "a". Paths are compared after path.Clean, with the
//     leading "..", "/" or "~" kept as a root that a path never climbs out
//     of, and never resolved on the disk;
//   - any other grant scope ending in "*" covers the scopes that start with
//     what comes before it, unless they hold a ".." path element;
//   - otherwise the scopes must be equal.
//
// A needed scope ending in "*" (or "*" itself) stands for every scope it
// matches, and is covered only by a grant that covers all of them: "*" only
// by "*". Under the domain "net", hosts and methods compare without case.
func (g Permission) Covers(p Permission) bool {
	if !partCovers(g.Domain, p.Domain) || !partCovers(g.Action, p.Action) {
		return false
	}
	return scopeCovers(g.Scope, p.Scope, p.Domain)
}

// pathDomains are the domains whose scopes are always paths.
var pathDomains = map[string]bool{"fs": true, "vcs": true}

func partCovers(grant, need string) bool { return grant == Wildcard || grant == need }

// scopeCovers decides the scopes of Covers.
func scopeCovers(grant, need, domain string) bool {
	if grant == Wildcard || grant == need {
		return true // the same scope names the same set
	}
	if need == Wildcard {
		return false
	}
	if pathDomains[domain] || isPath(grant) {
		return pathCovers(parsePathScope(grant), parsePathScope(need))
	}
	if domain == "net" {
		grant, need = strings.ToLower(grant), strings.ToLower(need)
	}
	if prefix, ok := strings.CutSuffix(grant, Wildcard); ok {
		// need may end in "*" too: its prefix then extends the grant's.
		return strings.HasPrefix(need, prefix) && !climbs(need)
	}
	return grant == need && !strings.HasSuffix(need, Wildcard)
}

// climbs reports whether a scope holds a ".." path element, which a
// string prefix must not be fooled by.
func climbs(scope string) bool {
	return scope == ".." || strings.HasPrefix(scope, "../") || strings.HasSuffix(scope, "/..") ||
		strings.Contains(scope, "/../")
}

// isPath reports whether a scope names a file system path.
func isPath(scope string) bool {
	return scope != "" && (scope[0] == '.' || scope[0] == '/' || scope[0] == '~')
}

// A pathScope is a path scope split into what it names: the set of paths
// at or under dir (kind atOrUnder), strictly under dir (under), or under
// dir with a first element that starts with name (named).
type pathScope struct {
	root string // "/", "~" or "~user" (the first element), or "" (relative)
	dir  string // the cleaned path below root: "." or "a/b" ("../a" when relative)
	kind pathKind
	name string // for named: the prefix of the first element below dir
}

type pathKind int

const (
	atOrUnder pathKind = iota // "./src"
	under                     // "./src/*"
	named                     // "./src/a*"
)

// parsePathScope reads a scope as a path pattern. A relative scope need not
// start with "." (the grant decides that the scopes are paths).
func parsePathScope(s string) pathScope {
	var ps pathScope
	if pre, ok := strings.CutSuffix(s, Wildcard); ok {
		i := strings.LastIndexByte(pre, '/')
		ps.kind, ps.name, s = named, pre[i+1:], pre[:i+1]
		if ps.name == "" {
			ps.kind = under
		}
		if s == "" {
			s = "."
		}
	}
	switch {
	case strings.HasPrefix(s, "/"):
		ps.root, s = "/", s[1:]
	case strings.HasPrefix(s, "~"):
		ps.root, s, _ = strings.Cut(s, "/")
	}
	ps.dir = path.Clean(s)
	if ps.root == "/" {
		// An absolute path cannot climb above the root: /../etc is /etc.
		ps.dir = strings.TrimPrefix(path.Clean("/"+ps.dir), "/")
		if ps.dir == "" {
			ps.dir = "."
		}
	}
	return ps
}

// within reports whether the cleaned relative path p is d or below it (and
// strictly below when strict). "." contains every path that does not climb
// out of it with "..".
func within(d, p string, strict bool) bool {
	if d == p {
		return !strict
	}
	if d == "." {
		return p != ".." && !strings.HasPrefix(p, "../")
	}
	return strings.HasPrefix(p, d+"/")
}

// firstBelow returns the first element of p below d, which p is strictly
// under.
func firstBelow(d, p string) string {
	if d != "." {
		p = p[len(d)+1:]
	}
	first, _, _ := strings.Cut(p, "/")
	return first
}

// contains reports whether the set of the grant g holds the single path p
// (p.kind is atOrUnder).
func (g pathScope) contains(p pathScope) bool {
	if g.root != p.root {
		return false
	}
	switch g.kind {
	case atOrUnder:
		return within(g.dir, p.dir, false)
	case under:
		return within(g.dir, p.dir, true)
	default:
		return within(g.dir, p.dir, true) && strings.HasPrefix(firstBelow(g.dir, p.dir), g.name)
	}
}

// pathCovers reports whether every path the need names is in the grant's
// set.
func pathCovers(g, p pathScope) bool {
	if g.root != p.root {
		return false
	}
	switch p.kind {
	case atOrUnder:
		return g.contains(p)
	case under:
		// Everything strictly under p.dir: p.dir itself must be covered,
		// or be the directory an under grant names.
		return g.contains(pathScope{root: p.root, dir: p.dir}) || g.kind == under && g.dir == p.dir
	default:
		// What is under p.dir with names starting p.name.
		if g.contains(pathScope{root: p.root, dir: p.dir}) || g.kind == under && g.dir == p.dir {
			return true
		}
		return g.kind == named && g.dir == p.dir && strings.HasPrefix(p.name, g.name)
	}
}
