package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// Windows of the reference: it keeps only the newest entries of these.
const (
	judgmentWindow  = 2000
	overridesWindow = 100
	ppHistoryWindow = 500
)

// WorkspaceFormat is the version of the workspace format this ucs writes
// (see workspace.Format).
const WorkspaceFormat = workspace.Format

// DefaultSnapshotEvery is how many events apart snapshots are kept unless
// Options say otherwise.
const DefaultSnapshotEvery = workspace.DefaultSnapshotEvery
