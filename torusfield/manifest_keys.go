package torusfield

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/suggest"
)

// ManifestKeys are the members a manifest document may have.
var ManifestKeys = []string{"capabilities", "semantic_map"}

// CapabilityKeys are the members of a capability entry that this package
// reads. A capability also carries what it declares (package policy's
// keys), which CheckKeys is given.
var CapabilityKeys = []string{"name", "connects_to", "u", "c", "n", "meta"}

// An UnknownKeyError is a member of a manifest object that no reader of
// the manifest knows: most often a misspelt key, whose value would
// otherwise be silently ignored.
type UnknownKeyError struct {
	Entry string   // "" for the document, else `capabilities[1] "run_tests"`
	Key   string   // the member as written
	Near  string   // the known key it is likely a misspelling of, or ""
	Known []string // the keys the object may have
}

func (e *UnknownKeyError) Error() string {
	s := "manifest: "
	if e.Entry != "" {
		s += e.Entry + ": "
	}
	s += fmt.Sprintf("unknown key %q", e.Key)
	if e.Near != "" {
		s += fmt.Sprintf("; did you mean %q?", e.Near)
	}
	return s
}

// Hint says what the object may hold, naming the likely key first.
func (e *UnknownKeyError) Hint() string {
	what := "a manifest"
	if e.Entry != "" {
		what = e.Entry
	}
	s := ""
	if e.Near != "" {
		s = fmt.Sprintf("did you mean %q? ", e.Near)
	}
	return s + "the keys of " + what + " are " + strings.Join(e.Known, ", ")
}

// CheckKeys refuses a manifest that has a member no reader knows: at the
// top level one not in ManifestKeys, in a capability entry one in neither
// CapabilityKeys nor declared (the keys of what a capability declares,
// policy.DeclarationKeys). The members of "meta" and of "semantic_map"
// are the user's own (labels, annotations) and are not checked; neither is
// the "outcome" object, which policy.ParseDeclarations checks. The error is
// an *UnknownKeyError naming the entry, the key and the known key it is
// likely a misspelling of.
//
// ParseManifest does not call it: a workspace pinned a manifest before
// unknown keys were refused, and must still load. Init checks what it is
// about to pin.
func CheckKeys(data []byte, declared []string) error {
	if bytes.Equal(data, aegisManifest) {
		return nil // known to pass (TestCheckKeysFixtures); init need not parse it
	}
	doc, err := pyjson.Parse(data)
	if err != nil {
		return &ManifestError{Msg: err.Error()}
	}
	if err := checkMembers(doc, "", ManifestKeys); err != nil {
		return err
	}
	caps, _ := doc.Get("capabilities")
	known := append(append([]string(nil), CapabilityKeys...), declared...)
	for i, cv := range caps.Items() {
		nv, _ := cv.Get("name")
		if err := checkMembers(cv, entryName(i, nv.Str()), known); err != nil {
			return err
		}
	}
	return nil
}

// checkMembers refuses the first member of an object that is not in known.
func checkMembers(v pyjson.Value, entry string, known []string) error {
	for _, m := range v.Members() {
		if !slices.Contains(known, m.Key) {
			return &UnknownKeyError{Entry: entry, Key: m.Key, Near: suggest.Near(m.Key, known), Known: known}
		}
	}
	return nil
}
