package bridge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/policy"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A manifestChoice is the manifest init pins and where it came from.
type manifestChoice struct {
	raw []byte
	// source is where the manifest came from: manifestFile (--manifest),
	// manifestInline (--capability-manifest), manifestPinned (the one the
	// workspace was initialized with), manifestWorkspace
	// (WORKSPACE/manifest.json) or manifestEmbedded (Aegis).
	source string
	path   string // the file it was read from; "" for inline and embedded
}

// Where init's manifest comes from (manifestChoice.source).
const (
	manifestFile      = "file"
	manifestInline    = "inline"
	manifestPinned    = "pinned"
	manifestWorkspace = "workspace"
	manifestEmbedded  = "embedded"
)

// answer is the manifest member of init's answer.
func (ch manifestChoice) answer() pyjson.Value {
	v := pyjson.Obj(pyjson.KV("source", ch.source))
	if ch.path != "" {
		v = v.With("path", ch.path)
	}
	return v
}

// name says which manifest it is, for a message.
func (ch manifestChoice) name() string {
	switch ch.source {
	case manifestInline:
		return "the capability_manifest given"
	case manifestEmbedded:
		return "the embedded Aegis manifest"
	case manifestPinned:
		return "the pinned " + ch.path
	}
	return ch.path
}

// named reports whether an init call names its manifest.
func named(c Call) bool {
	_, inline := argJSON(c, "capability_manifest")
	return inline || c.Args.StrOf("manifest") != ""
}

// chooseManifest finds the manifest for init: the one the call gives
// (capability_manifest, else the file "manifest"), else, when reinit (a
// forced init of an initialized workspace), the pinned one, else
// WS/manifest.json when present, else the embedded Aegis manifest. A
// reference workspace pins none: its reinit reads what it always loaded,
// WS/manifest.json or Aegis.
func (b *Bridge) chooseManifest(c Call, reinit bool) (manifestChoice, error) {
	if m, ok := argJSON(c, "capability_manifest"); ok {
		return manifestChoice{raw: pyjson.AppendCompact(nil, m), source: manifestInline}, nil
	}
	if path := c.Args.StrOf("manifest"); path != "" {
		raw, err := workspace.ReadFile(path)
		if err != nil {
			return manifestChoice{}, badInput(fault.CodeInvalidManifest, "check the --manifest path", "cannot read manifest: %v", err)
		}
		return manifestChoice{raw: raw, source: manifestFile, path: path}, nil
	}
	if reinit {
		raw, err := b.ws.ReadFile(relPinned)
		if err == nil {
			return manifestChoice{raw: raw, source: manifestPinned, path: b.ws.Path(relPinned)}, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return manifestChoice{}, pinnedUnreadable(err)
		}
	}
	p := b.ws.Path(relRootManifest)
	if _, err := os.Stat(p); err != nil {
		return manifestChoice{raw: torusfield.DefaultManifestJSON(), source: manifestEmbedded}, nil
	}
	raw, err := workspace.ReadFile(p)
	if err != nil {
		return manifestChoice{}, badInput(fault.CodeInvalidManifest, "check the --manifest path", "cannot read manifest: %v", err)
	}
	return manifestChoice{raw: raw, source: manifestWorkspace, path: p}, nil
}

// pinnedUnreadable is the error for a pinned manifest that cannot be
// read (a link, a directory, a permission): damage, which the user
// repairs or gets round by naming a manifest.
func pinnedUnreadable(err error) error {
	var fe *fault.Error
	if errors.As(err, &fe) {
		return err
	}
	return corrupt(err, relPinned)
}

// checkManifest parses the manifest init is about to pin and checks what
// its capabilities declare and that it has no key a reader ignores. A
// replay skips that last check: a workspace pinned a manifest before
// unknown keys were refused, and its history must still verify.
func (b *Bridge) checkManifest(ch manifestChoice) (*torusfield.Manifest, error) {
	hint := "fix the manifest; see the manifest format in README.md"
	if ch.source == manifestPinned {
		hint = "the workspace's pinned manifest (" + relPinned + ") does not load: name one with --manifest"
	}
	m, err := torusfield.ParseManifest(ch.raw)
	if err != nil {
		return nil, badInput(fault.CodeInvalidManifest, hint, "%v", err)
	}
	if _, err := policy.ParseDeclarations(ch.raw); err != nil {
		if ch.source != manifestPinned {
			hint = "fix the capability's declaration; docs/manifest.md lists every key and the values it takes"
		}
		return nil, badInput(fault.CodeInvalidManifest, hint, "%v", err)
	}
	if b.replaying {
		return m, nil
	}
	if err := torusfield.CheckKeys(ch.raw, policy.DeclarationKeys); err != nil {
		var uk *torusfield.UnknownKeyError
		if errors.As(err, &uk) && ch.source != manifestPinned {
			hint = uk.Hint() + "; see docs/manifest.md"
		}
		return nil, badInput(fault.CodeInvalidManifest, hint, "%v", err)
	}
	return m, nil
}

// samePinned refuses a manifest other than the one the workspace was
// initialized with (a reference workspace's: WS/manifest.json or Aegis).
// Two manifests are the same when their JSON is, written compactly: the
// same members in the same order (the order of the semantic map's labels
// shapes the graph), whatever the white space.
func (b *Bridge) samePinned(ch manifestChoice) error {
	pinned := manifestChoice{source: manifestPinned, path: b.ws.Path(relPinned)}
	raw, err := b.ws.ReadFile(relPinned)
	switch {
	case err == nil:
		pinned.raw = raw
	case errors.Is(err, fs.ErrNotExist):
		if pinned, err = b.chooseManifest(Call{}, false); err != nil {
			return err
		}
	default:
		return pinnedUnreadable(err)
	}
	if compactJSON(pinned.raw) == compactJSON(ch.raw) {
		return nil
	}
	return badInput(fault.CodeManifestDiffers,
		fmt.Sprintf("to start over on the named manifest, add --force (the state is backed up under %s/); to keep the workspace as it is, drop --manifest", workspace.RelBackupDir),
		"the workspace was initialized with another manifest: %s (%s) differs from %s (%s)",
		ch.name(), capabilities(ch.raw), pinned.name(), capabilities(pinned.raw))
}

// compactJSON is a document written compactly, or its bytes when it does
// not parse.
func compactJSON(raw []byte) string {
	v, err := pyjson.Parse(raw)
	if err != nil {
		return string(raw)
	}
	return string(pyjson.AppendCompact(nil, v))
}

// capabilities says how many capabilities a manifest has, for a message.
func capabilities(raw []byte) string {
	m, err := torusfield.ParseManifest(raw)
	if err != nil {
		return "does not load"
	}
	return fmt.Sprintf("%d capabilities", len(m.Capabilities))
}
