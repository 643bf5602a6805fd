package torusfield

import (
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/suggest"
)

// Near says which of the manifest's capabilities an unknown name was
// probably meant to be (a did-you-mean when one is within a typo's
// distance), and how many there are, so three close names do not read
// as the whole list.
func (m *Manifest) Near(name string) string {
	names := m.Names()
	near := suggest.Closest(name, names, 3)
	hint := ""
	if len(near) > 0 && suggest.Distance(name, near[0]) <= max(2, len([]rune(name))/3) {
		hint = "did you mean " + pyjson.Quote(near[0]) + "? "
	}
	hint += "the workspace's manifest has " + strconv.Itoa(len(names)) + " capabilities"
	if len(near) > 0 {
		hint += "; the closest: " + strings.Join(near, ", ")
	}
	return hint
}

// Unknown is the warning for a capability name the manifest lacks: what
// was done with it, and the name it was probably meant to be (Near).
func (m *Manifest) Unknown(name, what string) string {
	return "unknown capability " + pyjson.Quote(name) + " " + what + "; " + m.Near(name)
}

// UnknownHint is the hint of an error for an unknown capability: Near,
// and where all are listed (pinned, the path of the workspace's copy of
// the manifest).
func (m *Manifest) UnknownHint(name, pinned string) string {
	return m.Near(name) + "; all are listed in " + pinned + " (capabilities[].name)"
}
