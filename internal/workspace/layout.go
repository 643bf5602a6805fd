package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
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
	// Features encode what the index keeps of a knowledge entry. Without
	// them there is no index: searches read the data files.
	Features Features
	// Manifests parse the manifest. Without them the workspace keeps no
	// index and cannot be checked; a reference workspace cannot be opened.
	Manifests Manifests
	// Writes, when set, logs what this workspace's commits write (see
	// WriteLog); a workspace of another root logs nothing.
	Writes *WriteLog
}

// New returns the workspace rooted at root. It touches no file.
func New(root string, opts Options) *Workspace {
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = 10 * time.Second
	}
	if opts.Writes != nil && filepath.Clean(opts.Writes.Root) != filepath.Clean(root) {
		opts.Writes = nil
	}
	return &Workspace{root: root, opts: opts}
}

// Root is the workspace's directory.
func (l *Workspace) Root() string { return l.root }

// Path is the path of a workspace-relative, slash-separated name.
func (l *Workspace) Path(rel string) string { return l.path(rel) }

func (l *Workspace) path(rel string) string { return filepath.Join(l.root, filepath.FromSlash(rel)) }

// Exists reports whether a workspace file exists. A link counts, dangling
// or not: it is not followed, and reading it is an error of kind corrupt.
func (l *Workspace) Exists(rel string) bool {
	_, err := os.Lstat(l.path(rel))
	return err == nil
}

// ReadFile reads a workspace file (see ReadFile).
func (l *Workspace) ReadFile(rel string) ([]byte, error) { return readFile(l.path(rel)) }

// Paths relative to the workspace root, slash-separated: the journal records
// them, so they must not depend on where the workspace lives. The data
// files (RelActionLog to RelPPHistory, and RelModelLog) are append-only
// JSON lines, counted and hashed in the meta; the Markdown files are for
// people.
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

// realDirs checks that every directory of the workspace-relative directory
// rel that exists, from ucs/ down, is a directory and not a link to one:
// openFile refuses a link only in a path's last component, and a linked
// ucs/state/ would take every file in it elsewhere. A missing directory
// ends the check (what is below it does not exist either); the workspace's
// root itself is where the user put it, links included. It costs one lstat
// per level.
func (l *Workspace) realDirs(rel string) error {
	for i := 0; i <= len(rel); i++ {
		if i < len(rel) && rel[i] != '/' {
			continue
		}
		fi, err := os.Lstat(l.path(rel[:i]))
		switch {
		case os.IsNotExist(err):
			return nil
		case err != nil:
			return fault.Internal(err, "stat %s", rel[:i])
		case fi.Mode()&os.ModeSymlink != 0:
			return fault.NotRegular(l.path(rel[:i]), "a symbolic link")
		case !fi.IsDir():
			return fault.NotRegular(l.path(rel[:i]), "not a directory")
		}
	}
	return nil
}

// realDirOf is realDirs of the directory of the workspace file rel.
func (l *Workspace) realDirOf(rel string) error {
	return l.realDirs(rel[:max(strings.LastIndexByte(rel, '/'), 0)])
}

// layoutFiles are the files a commit may append to, by name: the data
// files, the journal, the pinned manifest and the Markdown for people. The
// others are in directories of their own (layoutRel).
var layoutFiles = []string{
	RelJournal, RelActionLog, RelMethodology, RelDeadEnds, RelJudgment, RelAnnotations,
	RelOverrides, RelPPHistory, RelModelLog, RelPinned, RelMethodologyMD, RelExperimentsMD, RelDeadEndsMD,
}

// layoutRel reports whether rel is a file of the workspace's layout that a
// commit may append to or create, and so a file a journal event may name
// for recovery to cut back: one of layoutFiles, a synthesis file, a file of
// the index, or a request record. A journal comes with the workspace, from
// wherever the workspace came: a name outside these is damage, never an
// instruction to truncate or remove a file.
func layoutRel(rel string) bool {
	if slices.Contains(layoutFiles, rel) {
		return true
	}
	name := func(s string) bool { // one plain component
		return s != "" && s[0] != '.' && !strings.ContainsAny(s, "/\\\x00")
	}
	if rest, ok := strings.CutPrefix(rel, RelSynthesisDir+"/"); ok {
		return name(rest) && strings.HasSuffix(rest, ".md")
	}
	if rest, ok := strings.CutPrefix(rel, RelIndexDir+"/"); ok {
		return name(rest)
	}
	if rest, ok := strings.CutPrefix(rel, RelRequests+"/"); ok {
		bucket, file, ok := strings.Cut(rest, "/")
		return ok && bucket != "" && strings.Trim(bucket, "0123456789") == "" && name(file) && strings.HasSuffix(file, ".json")
	}
	return false
}
