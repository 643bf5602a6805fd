package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Tx is one call's transaction on the workspace: it holds the lock from
// Begin to Close, reads what the call asks for, lazily, and queues what the
// call changes, which only Commit writes. A Tx that is closed without a
// commit changes no file (a search may have rebuilt the derived index: see
// RefreshIndex). A Tx is not safe for concurrent use.
type Tx struct {
	l         *Workspace
	lock      *Lock
	exclusive bool
	// created is set for a new workspace (Create): nothing in its state
	// directory is committed yet.
	created   bool
	recovered []string
	data      []byte // the state file as read
	// journal is the journal's end as the transaction read it under its
	// lock: the commit's parent event, unless only a big event's end was
	// read.
	journal journalTail
	// stateHash is the SHA-256 of the state file as read: the next event's
	// state_before.
	stateHash string
	manifest  Manifest
	// ref is a reference workspace's content, read whole (legacy.go); nil
	// in the ucs layout.
	ref *refWorkspace

	// Meta is the meta as committed. The caller changes its counters; a
	// commit changes its seq and files.
	Meta Meta

	lists   map[string][]pyjson.Value // data files as read
	added   map[string][]pyjson.Value // entries this transaction appends
	pending []pendingAppend
	sides   []sideFile // side and derived files the commit writes (sidefile.go)
	// requested is set when the commit records a request id (the old
	// buckets are pruned after it).
	requested bool
	warnings  []string // what failed after a commit point (see Commit)
	// dirsSynced reports the sync of the directories Create made, started
	// early so that it overlaps the call's work; the commit waits for it
	// before its rename. Nil when there is none.
	dirsSynced <-chan error

	index        indexState
	rebuildAfter bool  // the commit left the index stale: rebuild it
	indexFailed  error // why a rebuild failed
	postings     map[int][]capPosting

	records     *recordView       // the model log's, once read (records.go)
	recordsSet  map[string]Record // what SetRecords queued, by key
	recordDrops int               // damaged segments dropped (recindex.go)

	// NoIndex makes searches read the data files as if there were no index
	// (tests and benchmarks compare the two).
	NoIndex bool
	// Mark, when set, is called as each phase of a commit ends (UCS_TIMINGS).
	Mark func(phase string)
}

type pendingAppend struct {
	rel  string
	data []byte
}

// A StateFunc appends the state file's content to dst: a JSON object whose
// first member is lead (the "ucs" member, the meta), then the engine's
// state. The meta comes first so that a call reads its seq without
// decoding the rest.
type StateFunc func(dst []byte, lead pyjson.Member) []byte

// Begin starts a transaction on an initialized workspace: it takes the
// lock (exclusive for a call that changes the workspace, shared for a
// read), waiting at most Options.LockTimeout (then an error of kind busy);
// reads the state file, once; rolls back a call that was cut short (see
// recover.go; a read takes the lock exclusively for that); and reads the
// meta and the pinned manifest, or a reference workspace's content. What
// the recovery did is in Recovered.
func (l *Workspace) Begin(exclusive bool) (*Tx, error) {
	if !l.Exists(RelState) {
		return nil, fault.NotInitialized(l.root)
	}
	tx := &Tx{l: l, exclusive: exclusive}
	if err := tx.lockAndRecover(); err != nil {
		return nil, err
	}
	if err := tx.open(); err != nil {
		tx.Close()
		return nil, err
	}
	return tx, nil
}

// lockAndRecover takes the workspace lock, reads the state file (once: the
// transaction is read from the same bytes) and first repairs a call that
// was cut short (see recoverWorkspace). A read takes a shared lock, and the
// exclusive one only when there is something to repair.
func (tx *Tx) lockAndRecover() error {
	l := tx.l
	var err error
	if tx.lock, err = l.Lock(tx.exclusive); err != nil {
		return err
	}
	fail := func(err error) error {
		tx.Close()
		return err
	}
	if tx.data, err = readFile(l.path(RelState)); err != nil {
		if os.IsNotExist(err) {
			return fail(fault.NotInitialized(l.root))
		}
		return fail(fault.Internal(err, "read %s", RelState))
	}
	need, jt, err := needsRecovery(l, tx.data)
	if err != nil {
		return fail(err)
	}
	tx.journal = jt
	if !need {
		return nil
	}
	if !tx.exclusive {
		tx.lock.Unlock()
		if tx.lock, err = l.Lock(true); err != nil {
			return err
		}
	}
	if tx.recovered, err = recoverWorkspace(l); err != nil {
		return fail(err)
	}
	if tx.data, err = readFile(l.path(RelState)); err != nil {
		return fail(fault.Internal(err, "read %s", RelState))
	}
	if tx.journal, err = readJournalTail(l); err != nil {
		return fail(err)
	}
	return nil
}

// open reads the meta (or a reference workspace's content) and the
// manifest from the state file's bytes, and starts the transaction's view
// of the data files afresh.
func (tx *Tx) open() error {
	l := tx.l
	tx.resetView()
	m, ours, err := l.metaOf(tx.data)
	if err != nil {
		return fault.Corrupt(err, RelState)
	}
	tx.ref = nil
	if ours {
		tx.Meta = m
		raw, err := readFile(l.path(RelPinned))
		if err != nil {
			return fault.Corrupt(err, RelPinned)
		}
		// Without a parser the transaction has no manifest: the caller
		// does not need one (a mirror, a transfer).
		if parse := l.opts.Manifests.Parse; parse != nil {
			if tx.manifest, err = parse(raw); err != nil {
				return fault.Corrupt(err, RelPinned)
			}
		}
	} else if err := tx.loadReference(); err != nil {
		return err
	}
	// The state's hash is the last event's state_after (check and verify
	// prove the file still matches it); only a workspace without a journal
	// needs hashing.
	if after := tx.journal.event.StrOf("state_after"); tx.journal.seq == tx.Meta.Seq && after != "" {
		tx.stateHash = after
	} else {
		sum := sha256.Sum256(tx.data)
		tx.stateHash = hex.EncodeToString(sum[:])
	}
	return nil
}

func (tx *Tx) resetView() {
	tx.lists, tx.added = map[string][]pyjson.Value{}, map[string][]pyjson.Value{}
	tx.pending, tx.requested = nil, false
	tx.index, tx.rebuildAfter, tx.indexFailed, tx.postings = nil, false, nil, nil
	tx.closeRecords()
	tx.recordsSet = nil
}

// Discard drops everything the transaction queued and read and reads the
// workspace again from the bytes Begin read, keeping the lock: a call that
// ran on a workspace of an older format runs again once it is converted.
func (tx *Tx) Discard() error { return tx.open() }

// Close releases the lock. What was not committed is dropped: it was never
// written.
func (tx *Tx) Close() {
	tx.closeRecords()
	if tx.lock != nil {
		tx.lock.Unlock()
		tx.lock = nil
	}
}

// Recovered says what Begin's recovery did, if anything.
func (tx *Tx) Recovered() []string { return tx.recovered }

// State is the state file as Begin read it.
func (tx *Tx) State() []byte { return tx.data }

// Manifest is the workspace's manifest: the pinned one, a reference
// workspace's, or the one a new workspace pins (Pin), as Options.Manifests
// parsed it (the caller's type); nil without them.
func (tx *Tx) Manifest() Manifest { return tx.manifest }

// Legacy reports whether the workspace is in the reference's layout: its
// first commit must be Adopt's.
func (tx *Tx) Legacy() bool { return tx.ref != nil }

// List returns the entries of a data file, loading it on first use, with
// what this transaction added to it.
func (tx *Tx) List(rel string) ([]pyjson.Value, error) {
	if v, ok := tx.lists[rel]; ok {
		return append(v[:len(v):len(v)], tx.added[rel]...), nil
	}
	v, err := readJSONL(tx.l, rel)
	if err != nil {
		return nil, err
	}
	tx.lists[rel] = v
	return append(v[:len(v):len(v)], tx.added[rel]...), nil
}

// Tail returns at most the last n entries of a data file, with what this
// transaction added. It reads only the file's tail.
func (tx *Tx) Tail(rel string, n int) ([]pyjson.Value, error) {
	if tx.decodedFile(rel) || n >= tx.Meta.Files[rel].Lines+len(tx.added[rel]) {
		all, err := tx.List(rel)
		if err != nil {
			return nil, err
		}
		return all[max(0, len(all)-n):], nil
	}
	added := tx.added[rel]
	var out []pyjson.Value
	if need := n - len(added); need > 0 {
		lines, err := readTail(tx.l, rel, need, 0)
		if err != nil {
			return nil, err
		}
		if out, err = decodeTail(tx.l, rel, lines); err != nil {
			return nil, err
		}
	}
	out = append(out, added...)
	return out[max(0, len(out)-n):], nil
}

// Add appends an entry to a data file: in the transaction's view now, on
// disk at commit. It does not read the file: appending costs the same
// however long the file is.
func (tx *Tx) Add(rel string, v pyjson.Value) {
	tx.added[rel] = append(tx.added[rel], v)
	tx.pending = append(tx.pending, pendingAppend{rel, append(pyjson.AppendDumps(nil, v), '\n')})
}

// Append queues bytes for the end of a file that is not a data file (a
// Markdown file), written at commit.
func (tx *Tx) Append(rel string, data []byte) {
	tx.pending = append(tx.pending, pendingAppend{rel, data})
}

// Pin queues the manifest to pin in the workspace, written at commit, and
// makes it the transaction's manifest: a new workspace's.
func (tx *Tx) Pin(raw []byte, m Manifest) {
	tx.manifest = m
	tx.Append(RelPinned, raw)
}

// Backup copies workspace files into a new directory under
// ucs/state/backup/ named name (or name-2, ...) and returns the
// directory, relative to the workspace. It is not part of the commit: a
// backup is kept whether or not the call commits.
func (tx *Tx) Backup(name string, rels ...string) (string, error) {
	tx.l.untracked()
	dir, err := newBackupDir(tx.l, name)
	if err != nil {
		return "", err
	}
	for _, rel := range rels {
		if err := copyFile(tx.l.path(rel), filepath.Join(dir, filepath.Base(rel))); err != nil {
			return "", fault.Internal(err, "back up %s", rel)
		}
	}
	rel, _ := filepath.Rel(tx.l.root, dir)
	return filepath.ToSlash(rel), nil
}

// ErrInitialized is Create's answer when the workspace is initialized and
// force is not set.
var ErrInitialized = errors.New("the workspace is initialized")

// Create starts the transaction that makes a new workspace: it creates the
// workspace's directories, takes the lock exclusively, rolls back an
// initialization that was cut short, and with force moves an existing
// workspace's state aside into ucs/state/backup/init-TIME/ (nothing
// learned is deleted). Without force, an initialized workspace gives
// ErrInitialized. The transaction starts with an empty meta of the
// current format; its commit is the workspace's first event.
func (l *Workspace) Create(force bool, now time.Time) (*Tx, error) {
	l.untracked() // a crashed init rolled back, an old state moved aside
	var newDirs []string
	for _, d := range []string{RelStateDir, RelKnowledgeDir, RelWorkingState, RelSynthesisDir} {
		if d != RelWorkingState { // the agent's: ucs only reads it
			if err := l.realDirs(d); err != nil {
				return nil, err // nothing is made through a link
			}
		}
		made, err := mkdirs(l.path(d))
		if err != nil {
			return nil, fault.Internal(err, "create %s", d)
		}
		newDirs = append(newDirs, made...)
	}
	tx := &Tx{l: l, exclusive: true, created: true}
	// New directories are durable once their parents are synced: started
	// now, the syncs overlap the rest of the call, and the commit waits
	// for them before its rename.
	if len(newDirs) > 0 && !l.opts.NoSync {
		synced := make(chan error, 1)
		go func() { synced <- syncDirs(newDirs) }()
		tx.dirsSynced = synced
	}
	var err error
	if tx.lock, err = l.Lock(true); err != nil {
		return nil, err
	}
	// An init cut short leaves a journal and no state: roll it back. With
	// force a damaged workspace is moved aside whole instead.
	if _, err := recoverWorkspace(l); err != nil && !force {
		tx.Close()
		return nil, err
	}
	if l.Exists(RelState) {
		if !force { // another process initialized it while we waited
			tx.Close()
			return nil, ErrInitialized
		}
		if err := backupState(l, now); err != nil {
			tx.Close()
			return nil, err
		}
	}
	tx.resetView()
	tx.Meta = Meta{Format: Format, Files: map[string]FileSum{}}
	return tx, nil
}

// backupState moves a workspace's state files aside before a forced
// reinitialization: nothing learned is deleted.
func backupState(l *Workspace, now time.Time) error {
	dir, err := newBackupDir(l, "init-"+now.Format("20060102T150405Z"))
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(l.path(RelStateDir))
	if err != nil {
		return fault.Internal(err, "read %s", RelStateDir)
	}
	for _, ent := range entries {
		name := ent.Name()
		if name == "backup" || name == "lock" {
			continue
		}
		if err := os.Rename(filepath.Join(l.path(RelStateDir), name), filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fault.Internal(err, "move %s to backup", name)
		}
	}
	return nil
}

// mark ends a phase of the commit (Mark).
func (tx *Tx) mark(phase string) {
	if tx.Mark != nil {
		tx.Mark(phase)
	}
}

// warn records what failed after a commit point: the commit holds.
func (tx *Tx) warn(msg string) { tx.warnings = append(tx.warnings, msg) }
