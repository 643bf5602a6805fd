// Package version says which build of ucs this is: a release's
// MAJOR.MINOR.PATCH, or more for a development build. Every binary
// (ucs, ucs-mcp, ucs-pg) and the MCP server's handshake report the same.
package version

import (
	"runtime/debug"
	"strings"
)

// Stamp is what `git describe --tags --always --dirty` said when the
// Makefile built this binary (-ldflags "-X ...internal/version.Stamp=...");
// empty when the binary was built without it (go install, go build).
var Stamp string

// Version is the version of this binary, without a leading "v": MAJOR.MINOR.PATCH
// for a release, anything longer for a development build. It is computed only
// when asked (the version command, ucs --version), never on a call's path:
// reading the build information costs a few microseconds.
func Version() string {
	var module string
	if info, ok := debug.ReadBuildInfo(); ok {
		module = info.Main.Version
	}
	return versionOf(module, Stamp)
}

// versionOf picks the version from the main module's version (set by
// go install ...@vX.Y.Z, and by go build from a checkout where the go
// command stamps version control information) and the Makefile's stamp
// (git describe's output), in this order: a module release; the stamp; a
// module pseudo-version; else 0.0.0-devel. A development build's version
// keeps the MAJOR.MINOR.PATCH shape (semantic versioning's pre-release and
// build parts), so what reads it as a version (skill check) still can:
// git describe's "v0.1.0-3-gabc1234-dirty" is 0.1.0-3-gabc1234-dirty, and
// a checkout with no tag ("abc1234-dirty") is 0.0.0-devel+abc1234-dirty.
func versionOf(module, stamp string) string {
	if module == "(devel)" {
		module = ""
	}
	switch {
	case isRelease(module):
		return strings.TrimPrefix(module, "v")
	case stamp != "":
		if s := strings.TrimPrefix(stamp, "v"); s != "" && s[0] >= '0' && s[0] <= '9' {
			return s
		}
		return "0.0.0-devel+" + stamp
	case module != "":
		return strings.TrimPrefix(module, "v")
	}
	return "0.0.0-devel"
}

// isRelease says whether v is a version tag with nothing after it,
// vMAJOR.MINOR.PATCH (no regular expression: it would be compiled at every
// start-up).
func isRelease(v string) bool {
	parts := strings.Split(strings.TrimPrefix(v, "v"), ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}
