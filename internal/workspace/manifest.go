package workspace

import "errors"

// A Manifest is a parsed manifest as storage uses it: the index keeps a
// list per capability, named by the capability's position. The caller's
// parser makes it (torusfield.ParseManifest), so that storage keeps the
// manifest's bytes without importing the engine they configure.
type Manifest interface {
	// Index returns the capability's position in the manifest, or -1.
	Index(capability string) int
}

// Manifests parse a workspace's manifest and give the default one. They
// are the caller's, as Features are. A workspace opened without them still
// commits, recovers and reads its files; what needs a parsed manifest (the
// index, check, a reference workspace) needs them.
type Manifests struct {
	// Parse parses a manifest's bytes; an error is the manifest's problem.
	Parse func(raw []byte) (Manifest, error)
	// Default is the bytes of the manifest of a reference workspace
	// without a manifest.json.
	Default func() []byte
}

// errNoManifests is a call that needs a parsed manifest on a workspace
// opened without Manifests.
var errNoManifests = errors.New("the workspace was opened without a manifest parser")
