package workspace

import (
	"errors"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Features encode a knowledge entry's features for its index line
// (knowledge.AppendFeatures and knowledge.FeatureFields). They are the
// caller's, so that storage keeps the index without importing the
// knowledge it describes.
type Features struct {
	// Append appends an entry's features, Fields tab-separated fields.
	Append func(dst []byte, entry pyjson.Value) []byte
	Fields int
}

// errNoFeatures is a rebuild of the index by a workspace opened without
// Features: it cannot write the index lines, so searches read the files.
var errNoFeatures = errors.New("the workspace was opened without the index's features")

// indexes reports whether the workspace keeps an index: it needs the
// caller's Features for its lines and Manifests for its capability lists.
func (l *Workspace) indexes() bool {
	return l.opts.Features.Append != nil && l.opts.Manifests.Parse != nil
}
