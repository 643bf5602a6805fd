package workspace

import (
	"os"
	"path/filepath"
	"time"
)

// A Workspace is a workspace directory: it names its files (see
// docs/storage.md) and begins transactions on them. It holds no state
// between transactions.
type Workspace struct {
	root string
	opts Options
}

// Options configure a Workspace.
type Options struct {
	LockTimeout time.Duration // how long Begin waits for the lock; 10s
	// SnapshotEvery keeps a snapshot of the state every so many events, so
	// verify can start from it (0: never).
	SnapshotEvery int
	// Models lists the learning models this ucs knows: a state naming
	// another is of a newer ucs (unsupported_version). Nil: any.
	Models func() []string
	// NoSync commits in the same order but fsyncs nothing: for a copy
	// whose durability another store provides (a PostgreSQL store's
	// mirror, which the store rebuilds after a power loss). A kill -9
	// leaves what a synced commit leaves; recovery is the same.
	NoSync bool
}

// New returns the workspace rooted at root. It touches no file.
func New(root string, opts Options) *Workspace {
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = 10 * time.Second
	}
	return &Workspace{root: root, opts: opts}
}

// Root is the workspace's directory.
func (l *Workspace) Root() string { return l.root }

// Path is the path of a workspace-relative, slash-separated name.
func (l *Workspace) Path(rel string) string { return l.path(rel) }

func (l *Workspace) path(rel string) string { return filepath.Join(l.root, filepath.FromSlash(rel)) }

// Exists reports whether a workspace file exists.
func (l *Workspace) Exists(rel string) bool {
	_, err := os.Stat(l.path(rel))
	return err == nil
}

// ReadFile reads a workspace file (see ReadFile).
func (l *Workspace) ReadFile(rel string) ([]byte, error) { return readFile(l.path(rel)) }

// Paths relative to the workspace root, slash-separated: the journal records
// them, so they must not depend on where the workspace lives. The data
// files (RelActionLog to RelPPHistory) are append-only JSON lines, counted
// and hashed in the meta; the Markdown files are for people.
const (
	RelStateDir      = "ucs/state"
	RelKnowledgeDir  = "ucs/knowledge"
	RelWorkingState  = "ucs/working-state"
	RelSynthesisDir  = "ucs/knowledge/synthesis"
	RelBackupDir     = "ucs/state/backup"
	RelState         = "ucs/state/torusfield_state.json"
	RelStatePrev     = "ucs/state/torusfield_state.json.prev" // the previous commit's, for repair
	RelPinned        = "ucs/state/manifest.json"
	RelJournal       = "ucs/state/journal.jsonl"
	RelLock          = "ucs/state/lock"
	RelActionLog     = "ucs/state/action_log.jsonl"
	RelMethodology   = "ucs/state/methodology.jsonl"
	RelDeadEnds      = "ucs/state/dead_ends.jsonl"
	RelJudgment      = "ucs/state/judgment_nodes.jsonl"
	RelAnnotations   = "ucs/state/annotations.jsonl"
	RelOverrides     = "ucs/state/policy_overrides.jsonl"
	RelPPHistory     = "ucs/state/pp_history.jsonl"
	RelRefIndex      = "ucs/state/ucs_index.json"  // reference layout only
	RelRefPPHistory  = "ucs/state/pp_history.json" // reference layout only
	RelMethodologyMD = "ucs/knowledge/methodology.md"
	RelExperimentsMD = "ucs/knowledge/experiments.md"
	RelDeadEndsMD    = "ucs/knowledge/dead-ends.md"
	RelRootManifest  = "manifest.json"
	// RelObservations is the book of observations (package belief) of a
	// workspace that keeps one: written whole when it changes, before the
	// state that names it by hash is committed, the previous one kept as
	// RelObservations + ".prev" (the state may still name it).
	RelObservations = "ucs/state/observations.json"
)

// The workspace holds what the agent learned, its reasoning and its tools'
// output: ucs makes its directories and files for the owner alone, as ssh
// and restic do for their stores, whatever the umask (which can only take
// permissions away). Check warns about a workspace others can read.
const (
	DirPerm  os.FileMode = 0o700
	FilePerm os.FileMode = 0o600
)
