package initmanifest

import (
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Pick returns the manifest an init pins, chosen (Choose; reinit for a
// forced init of an initialized workspace) and checked (Check), parsed.
func Pick(ws *workspace.Workspace, r Request, reinit, replaying bool) (Choice, *torusfield.Manifest, error) {
	ch, err := Choose(ws, r, reinit)
	if err != nil {
		return Choice{}, nil, err
	}
	m, err := Check(ch, replaying)
	if err != nil {
		return Choice{}, nil, err
	}
	return ch, m, nil
}

// Compare checks the manifest an init of an initialized workspace without
// force names, if any: naming another one than the workspace's is a
// mistake to say (SamePinned), not an init to skip.
func Compare(ws *workspace.Workspace, r Request, replaying bool) error {
	if !r.Named() {
		return nil
	}
	ch, _, err := Pick(ws, r, false, replaying)
	if err != nil {
		return err
	}
	return SamePinned(ws, ch)
}
