// Package initmanifest owns what init decides before it creates a
// workspace (a Plan: Decide). Above all the choice of the capability
// manifest it pins: the one the call names (a file or inline), the pinned
// one on a forced re-init, WORKSPACE/manifest.json, or the embedded Aegis
// manifest; the checks it must pass before it is pinned (it loads, its
// declarations are valid, it has no key a reader ignores); and the refusal
// of a named manifest that differs from the pinned one
// (manifest_differs). Then the learning model, the format, the warm-up,
// and the journal's record of the call. It sits above storage because the
// choice reads the workspace, and apart from package transfer because a
// manifest choice is init's, not the export package's.
package initmanifest

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

// A Choice is the manifest init pins and where it came from.
type Choice struct {
	Raw []byte
	// Source is where the manifest came from: File (--manifest), Inline
	// (--capability-manifest), Pinned (the one the workspace was
	// initialized with), Workspace (WORKSPACE/manifest.json) or Embedded
	// (Aegis).
	Source string
	Path   string // the file it was read from; "" for inline and embedded
}

// Where init's manifest comes from (Choice.Source).
const (
	File      = "file"
	Inline    = "inline"
	Pinned    = "pinned"
	Workspace = "workspace"
	Embedded  = "embedded"
)

// A Request is what an init call says: of its manifest, of its learning
// model and of the workspace it finds.
type Request struct {
	Inline    pyjson.Value // capability_manifest, when HasInline
	HasInline bool
	Path      string // manifest, a file; "" when not given
	Model     string // model; "" when not given
	// Force starts an initialized workspace over; FleetPrior starts the
	// new model from the fleet's.
	Force, FleetPrior bool
}

// Named reports whether an init call names its manifest.
func (r Request) Named() bool { return r.HasInline || r.Path != "" }

// Answer is the manifest member of init's answer.
func (ch Choice) Answer() pyjson.Value {
	v := pyjson.Obj(pyjson.KV("source", ch.Source))
	if ch.Path != "" {
		v = v.With("path", ch.Path)
	}
	return v
}

// name says which manifest it is, for a message.
func (ch Choice) name() string {
	switch ch.Source {
	case Inline:
		return "the capability_manifest given"
	case Embedded:
		return "the embedded Aegis manifest"
	case Pinned:
		return "the pinned " + ch.Path
	}
	return ch.Path
}

// Choose finds the manifest for init: the one the call gives
// (capability_manifest, else the file "manifest"), else, when reinit (a
// forced init of an initialized workspace), the pinned one, else
// WS/manifest.json when present, else the embedded Aegis manifest. A
// reference workspace pins none: its reinit reads what it always loaded,
// WS/manifest.json or Aegis.
func Choose(ws *workspace.Workspace, r Request, reinit bool) (Choice, error) {
	if r.HasInline {
		return Choice{Raw: pyjson.AppendCompact(nil, r.Inline), Source: Inline}, nil
	}
	if path := r.Path; path != "" {
		raw, err := workspace.ReadFile(path)
		if err != nil {
			return Choice{}, fault.BadInput(fault.CodeInvalidManifest, "check the --manifest path", "cannot read manifest: %v", err)
		}
		return Choice{Raw: raw, Source: File, Path: path}, nil
	}
	if reinit {
		raw, err := ws.ReadFile(workspace.RelPinned)
		if err == nil {
			return Choice{Raw: raw, Source: Pinned, Path: ws.Path(workspace.RelPinned)}, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return Choice{}, pinnedUnreadable(err)
		}
	}
	p := ws.Path(workspace.RelRootManifest)
	if _, err := os.Stat(p); err != nil {
		return Choice{Raw: torusfield.DefaultManifestJSON(), Source: Embedded}, nil
	}
	raw, err := workspace.ReadFile(p)
	if err != nil {
		return Choice{}, fault.BadInput(fault.CodeInvalidManifest, "check the --manifest path", "cannot read manifest: %v", err)
	}
	return Choice{Raw: raw, Source: Workspace, Path: p}, nil
}

// pinnedUnreadable is the error for a pinned manifest that cannot be
// read (a link, a directory, a permission): damage, which the user
// repairs or gets round by naming a manifest.
func pinnedUnreadable(err error) error {
	var fe *fault.Error
	if errors.As(err, &fe) {
		return err
	}
	return fault.Corrupt(err, workspace.RelPinned)
}

// Check parses the manifest init is about to pin and checks what
// its capabilities declare and that it has no key a reader ignores. A
// replay skips that last check: a workspace pinned a manifest before
// unknown keys were refused, and its history must still verify.
func Check(ch Choice, replaying bool) (*torusfield.Manifest, error) {
	hint := "fix the manifest; see the manifest format in README.md"
	if ch.Source == Pinned {
		hint = "the workspace's pinned manifest (" + workspace.RelPinned + ") does not load: name one with --manifest"
	}
	m, err := torusfield.ParseManifest(ch.Raw)
	if err != nil {
		return nil, fault.BadInput(fault.CodeInvalidManifest, hint, "%v", err)
	}
	if _, err := policy.ParseDeclarations(ch.Raw); err != nil {
		if ch.Source != Pinned {
			hint = "fix the capability's declaration; docs/manifest.md lists every key and the values it takes"
		}
		return nil, fault.BadInput(fault.CodeInvalidManifest, hint, "%v", err)
	}
	if replaying {
		return m, nil
	}
	if err := torusfield.CheckKeys(ch.Raw, policy.DeclarationKeys); err != nil {
		var uk *torusfield.UnknownKeyError
		if errors.As(err, &uk) && ch.Source != Pinned {
			hint = uk.Hint() + "; see docs/manifest.md"
		}
		return nil, fault.BadInput(fault.CodeInvalidManifest, hint, "%v", err)
	}
	return m, nil
}

// SamePinned refuses a manifest other than the one the workspace was
// initialized with (a reference workspace's: WS/manifest.json or Aegis).
// Two manifests are the same when their JSON is, written compactly: the
// same members in the same order (the order of the semantic map's labels
// shapes the graph), whatever the white space.
func SamePinned(ws *workspace.Workspace, ch Choice) error {
	pinned := Choice{Source: Pinned, Path: ws.Path(workspace.RelPinned)}
	raw, err := ws.ReadFile(workspace.RelPinned)
	switch {
	case err == nil:
		pinned.Raw = raw
	case errors.Is(err, fs.ErrNotExist):
		if pinned, err = Choose(ws, Request{}, false); err != nil {
			return err
		}
	default:
		return pinnedUnreadable(err)
	}
	if compactJSON(pinned.Raw) == compactJSON(ch.Raw) {
		return nil
	}
	return fault.BadInput(fault.CodeManifestDiffers,
		fmt.Sprintf("to start over on the named manifest, add --force (the state is backed up under %s/); to keep the workspace as it is, drop --manifest", workspace.RelBackupDir),
		"the workspace was initialized with another manifest: %s (%s) differs from %s (%s)",
		ch.name(), capabilities(ch.Raw), pinned.name(), capabilities(pinned.Raw))
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
