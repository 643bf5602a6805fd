package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// The workspace files the operations name (package workspace owns the
// layout; see docs/storage.md).
const (
	relWorkingState  = workspace.RelWorkingState
	relSynthesisDir  = workspace.RelSynthesisDir
	relState         = workspace.RelState
	relPinned        = workspace.RelPinned
	relJournal       = workspace.RelJournal
	relActionLog     = workspace.RelActionLog
	relMethodology   = workspace.RelMethodology
	relDeadEnds      = workspace.RelDeadEnds
	relJudgment      = workspace.RelJudgment
	relAnnotations   = workspace.RelAnnotations
	relOverrides     = workspace.RelOverrides
	relPPHistory     = workspace.RelPPHistory
	relMethodologyMD = workspace.RelMethodologyMD
	relExperimentsMD = workspace.RelExperimentsMD
	relDeadEndsMD    = workspace.RelDeadEndsMD
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
