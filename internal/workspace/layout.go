package bridge

import "path/filepath"

// layout names the files of a workspace (see docs/storage.md).
type layout struct{ root string }

func (l layout) path(rel string) string { return filepath.Join(l.root, filepath.FromSlash(rel)) }

// Paths relative to the workspace root, slash-separated: the journal records
// them, so they must not depend on where the workspace lives.
const (
	relStateDir      = "ucs/state"
	relKnowledgeDir  = "ucs/knowledge"
	relWorkingState  = "ucs/working-state"
	relSynthesisDir  = "ucs/knowledge/synthesis"
	relBackupDir     = "ucs/state/backup"
	relState         = "ucs/state/torusfield_state.json"
	relStatePrev     = "ucs/state/torusfield_state.json.prev" // the previous commit's, for repair
	relPinned        = "ucs/state/manifest.json"
	relJournal       = "ucs/state/journal.jsonl"
	relLock          = "ucs/state/lock"
	relActionLog     = "ucs/state/action_log.jsonl"
	relMethodology   = "ucs/state/methodology.jsonl"
	relDeadEnds      = "ucs/state/dead_ends.jsonl"
	relJudgment      = "ucs/state/judgment_nodes.jsonl"
	relAnnotations   = "ucs/state/annotations.jsonl"
	relOverrides     = "ucs/state/policy_overrides.jsonl"
	relPPHistory     = "ucs/state/pp_history.jsonl"
	relRefIndex      = "ucs/state/ucs_index.json"  // reference layout only
	relRefPPHistory  = "ucs/state/pp_history.json" // reference layout only
	relMethodologyMD = "ucs/knowledge/methodology.md"
	relExperimentsMD = "ucs/knowledge/experiments.md"
	relDeadEndsMD    = "ucs/knowledge/dead-ends.md"
	relRootManifest  = "manifest.json"
)

// Windows of the reference: it keeps only the newest entries of these.
const (
	judgmentWindow  = 2000
	overridesWindow = 100
	ppHistoryWindow = 500
)
