package workspace

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Commit writes the transaction's changes as one event: the journal event
// first, then the appends, then the state file, whose atomic replacement
// is the commit point (see the package documentation and
// docs/storage.md). The caller gives the event's operation, arguments,
// input, clock, t before and after and agent; Commit fills in its seq,
// parent, state hashes, files, format and model. state writes the new
// state file. Commit returns warnings about what failed after the commit
// point (a snapshot, an index rebuild): the commit holds regardless.
func (tx *Tx) Commit(ev Event, state StateFunc) ([]string, error) {
	tx.warnings = nil
	err := tx.commit(ev, state, false)
	return tx.warnings, err
}

func (tx *Tx) commit(ev Event, state StateFunc, snapshot bool) (err error) {
	defer func() {
		if err != nil {
			// Some of the files may have been written: only a look at
			// them tells which.
			tx.l.untracked()
		}
	}()
	if !tx.exclusive {
		return fault.Internal(errors.New("the transaction holds the workspace shared"), "commit")
	}
	if err := tx.indexPending(); err != nil {
		return err
	}
	if err := tx.writeSides(); err != nil {
		return err
	}
	m := tx.Meta.clone()
	m.Seq++
	if line := tx.recordLine(m.Seq); line != nil {
		// The records' line is queued with the other appends for this
		// attempt only: a commit that fails keeps its records queued, not
		// a line a retry would write twice.
		queued := tx.pending
		tx.pending = append(slices.Clip(queued), pendingAppend{RelModelLog, line})
		defer func() {
			if tx.pending != nil {
				tx.pending = queued
			}
		}()
	}
	for _, p := range tx.pending {
		if slices.Contains(countedFiles, p.rel) {
			m.Files[p.rel] = m.Files[p.rel].add(p.data)
		}
	}
	// The "ucs" member comes first so a call can read ucs.seq without
	// decoding the engine state; the reference's loader ignores it.
	stateBytes := state(nil, pyjson.KV("ucs", m.value()))
	sum := sha256.Sum256(stateBytes)
	stateAfter := hex.EncodeToString(sum[:])
	tx.mark("encode")

	// A new workspace's commit (an init's) is its first event: nothing in
	// the state directory is committed yet (a forced init moved it all
	// aside), so whatever a crashed init left there is overwritten from
	// the start.
	first := tx.created
	if first {
		// A crashed init may have left a temporary state file.
		if _, err := removeStateTemps(tx.l); err != nil {
			return err
		}
	}
	// Where each file stands before the call: recovery truncates back to it.
	var order []string
	sizes := map[string]int64{}
	for _, p := range tx.pending {
		if _, ok := sizes[p.rel]; ok {
			continue
		}
		size, err := appendOffset(tx.l, p.rel)
		if err != nil {
			return err
		}
		if first && strings.HasPrefix(p.rel, RelStateDir+"/") {
			size = -1
		}
		if w := tx.l.opts.Writes; w != nil && size >= 0 {
			// A torn last line is overwritten: the file as it was is not
			// appended to, which the log cannot say.
			if full, err := fileSize(tx.l, p.rel); err != nil || full != size {
				w.Untracked = true
			}
		}
		sizes[p.rel] = size
		order = append(order, p.rel)
	}
	files := make([]pyjson.Member, len(order))
	for i, rel := range order {
		files[i] = pyjson.KV(rel, sizes[rel])
	}
	// The lock has been held since the journal's end was read, so that
	// read still holds, unless it left out a big event's hash.
	jt := tx.journal
	if !jt.exists || jt.partial {
		var err error
		if jt, err = readJournalTail(tx.l); err != nil {
			return err
		}
	}
	if jt.seq != tx.Meta.Seq {
		return fault.Corrupt(fmt.Errorf("the journal ends at event %d but the state file is at %d", jt.seq, tx.Meta.Seq), RelJournal)
	}
	parent, journalSize := jt.hash, jt.end
	ev.Seq, ev.Parent = m.Seq, parent
	ev.StateBefore, ev.StateAfter, ev.Files = tx.stateHash, stateAfter, pyjson.ObjectValue(files)
	ev.Format, ev.Model = min(m.Format, EventFormat), m.Model
	line := ev.seal()
	// The last guard of the rule that every input is text: an event, a
	// state or an appended line that is not UTF-8 would make the workspace
	// unreadable to every later call, so it is never written.
	if err := allText(line, stateBytes, tx.pending); err != nil {
		return err
	}
	// A call that appends syncs its journal event first: it must be durable
	// before any appended line it describes, lest a line survive a power
	// loss that the event, which holds the offset to cut it back to, did
	// not. An init (nothing before it to cut back to) and a call that only
	// replaces the state (a consult) sync the event with the new state
	// instead: the rename still comes after both, and an event whose state
	// never landed is rolled back with nothing to cut.
	together := first || len(order) == 0
	opened := make([]*os.File, 0, len(order)+2)
	rels := make([]string, 0, len(order)+2)
	defer func() {
		for _, f := range opened {
			f.Close() // after a failure; closed already on success
		}
	}()
	jf, newDirs, err := writeAt(tx.l, RelJournal, journalSize, line)
	if err != nil {
		return err
	}
	// The new state's temporary file is created and written while the
	// journal event syncs: nothing reads it before the rename, and a call
	// cut short leaves it unnamed.
	type tempFile struct {
		t   *stateTemp
		err error
	}
	tempDone := make(chan tempFile, 1)
	go func() {
		if tx.l.opts.NoSync && !first {
			if t, ok := reuseStateFile(tx.l, stateBytes); ok {
				tempDone <- tempFile{t, nil}
				return
			}
		}
		pf, err := newStateFile(tx.l, RelState, stateBytes)
		if err != nil {
			tempDone <- tempFile{nil, err}
			return
		}
		tempDone <- tempFile{&stateTemp{pf: pf}, nil}
	}()
	switch {
	case together:
		opened, rels = append(opened, jf), append(rels, RelJournal)
	case tx.l.opts.NoSync:
		err = jf.Close()
	default:
		err = closeSynced(jf, RelJournal)
	}
	temp := <-tempDone
	if temp.t != nil {
		defer temp.t.cleanup() // a no-op once the rename is done
	}
	if err == nil {
		err = temp.err
	}
	if err != nil {
		return err
	}
	pf := temp.t
	crashPoint("journal")
	tx.mark("journal")
	// Write every append and sync them all at once with the new state;
	// only then rename the state into place, the commit point.
	appended := make([][]byte, 0, len(order))
	for _, rel := range order {
		var buf bytes.Buffer
		for _, p := range tx.pending {
			if p.rel == rel {
				buf.Write(p.data)
			}
		}
		f, made, err := writeAt(tx.l, rel, sizes[rel], buf.Bytes())
		if err != nil {
			return err
		}
		appended = append(appended, buf.Bytes())
		newDirs = append(newDirs, made...)
		opened, rels = append(opened, f), append(rels, rel)
		crashPoint("append " + rel)
	}
	// Linking the committed state as .prev drops the previous .prev, and
	// freeing that file costs the file system about 0.2 ms. The link need
	// only exist before the rename, so it is made while the files sync.
	prevDone := make(chan error, 1)
	go func() { prevDone <- keepPrevious(tx.l) }()
	group := append(opened, pf.file())
	if !tx.l.opts.NoSync {
		for _, f := range group {
			startWriteback(f) // all their data in flight before the first fsync waits
		}
		err = syncAll(group, append(rels, RelState))
	}
	if perr := <-prevDone; err == nil {
		err = perr
	}
	if err != nil {
		return err
	}
	for i, f := range opened {
		if err := f.Close(); err != nil {
			return fault.Internal(err, "close %s", rels[i])
		}
	}
	opened = nil
	tx.mark("appends")
	crashPoint("prev")
	if tx.dirsSynced != nil {
		if err := <-tx.dirsSynced; err != nil {
			return err
		}
	}
	if tx.l.opts.NoSync {
		// renameio would sync the file first: rename it as it is.
		if err := pf.file().Close(); err != nil {
			return fault.Internal(err, "close %s", RelState)
		}
		if err := os.Rename(pf.path(), tx.l.path(RelState)); err != nil {
			return fault.Internal(err, "replace %s", RelState)
		}
		pf.renamed = true
	} else {
		if err := pf.pf.CloseAtomicallyReplace(); err != nil {
			return fault.Internal(err, "replace %s", RelState)
		}
		// The rename and any file or directory this commit created are
		// durable only once their directories are.
		if err := syncDirs(dirsToSync(tx.l, order, sizes, newDirs)); err != nil {
			return err
		}
	}
	tx.mark("state")
	crashPoint("committed")
	tx.logWrites(journalSize, line, stateBytes, order, sizes, appended)
	if snapshot || (tx.l.opts.SnapshotEvery > 0 && m.Seq%int64(tx.l.opts.SnapshotEvery) == 0) {
		if err := writeSnapshot(tx.l, m.Seq); err != nil {
			tx.warn("the commit holds, but its snapshot failed: " + err.Error())
		}
	}
	tx.Meta, tx.stateHash, tx.pending, tx.sides, tx.dirsSynced, tx.created = m, stateAfter, nil, nil, nil, false
	if tx.recordsSet != nil {
		tx.recordsSet = nil
		tx.closeRecords() // read again, with the new line, when asked
	}
	tx.journal = journalTail{} // a later commit in this call (after an adopt) reads the new end
	if tx.requested {
		tx.requested = false
		pruneRequests(tx.l, m.Requests)
	}
	if tx.rebuildAfter {
		// The index is derived: a failed rebuild leaves it stale, and
		// searches read the data files until a later call rebuilds it.
		tx.index, tx.rebuildAfter = nil, false
		if err := tx.rebuildIndex(); err != nil {
			tx.warn("the commit holds, but rebuilding the index failed (searches read the knowledge files until it is rebuilt): " + fault.AsError(err).Msg)
		}
	}
	return nil
}

// logWrites logs what a commit wrote (Options.Writes), once it holds: the
// side files, the journal's event, the appends and the state.
func (tx *Tx) logWrites(journalAt int64, event, state []byte, order []string, sizes map[string]int64, appended [][]byte) {
	w := tx.l.opts.Writes
	if w == nil {
		return
	}
	for _, f := range tx.sides {
		w.wrote(f.rel, f.data)
	}
	w.appended(RelJournal, journalAt, event)
	for i, rel := range order {
		w.appended(rel, sizes[rel], appended[i])
	}
	w.wrote(RelState, state)
}

// keepPrevious hard-links the committed state file as its .prev before it
// is replaced, so check --repair can fall back to it if the new one is
// ever damaged. Linking costs two system calls and copies nothing.
func keepPrevious(l *Workspace) error {
	prev := l.path(RelStatePrev)
	if err := os.Remove(prev); err != nil && !os.IsNotExist(err) {
		return fault.Internal(err, "remove %s", RelStatePrev)
	}
	if err := os.Link(l.path(RelState), prev); err != nil && !os.IsNotExist(err) {
		return fault.Internal(err, "link %s", RelStatePrev)
	}
	return nil
}

// dirsToSync lists the state directory, the directory of every file a
// commit created and the directories whose entries it changed by creating
// directories (newDirs), once each, as paths.
func dirsToSync(l *Workspace, order []string, sizes map[string]int64, newDirs []string) []string {
	dirs := []string{l.path(RelStateDir)}
	add := func(dir string) {
		if !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	for _, rel := range order {
		if sizes[rel] < 0 {
			add(l.path(rel[:strings.LastIndexByte(rel, '/')]))
		}
	}
	for _, dir := range newDirs {
		add(dir)
	}
	return dirs
}

// syncDirs fsyncs directories, making renames and new entries in them
// durable; several at once, as syncAll does.
func syncDirs(paths []string) error {
	dirs := make([]*os.File, 0, len(paths))
	defer func() {
		for _, d := range dirs {
			d.Close()
		}
	}()
	for _, path := range paths {
		d, err := openDir(path)
		if err != nil {
			return fault.Internal(err, "open %s", path)
		}
		dirs = append(dirs, d)
	}
	return syncAll(dirs, paths)
}

// syncDir fsyncs one directory.
func syncDir(dir string) error {
	f, err := openDir(dir)
	if err != nil {
		return fault.Internal(err, "open %s", dir)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fault.Internal(err, "sync %s", dir)
	}
	return nil
}

// allText fails unless the event, the state and every appended line are
// valid UTF-8.
func allText(event, state []byte, appends []pendingAppend) error {
	bad := ""
	switch {
	case !utf8.Valid(event):
		bad = RelJournal
	case !utf8.Valid(state):
		bad = RelState
	}
	for _, p := range appends {
		if bad == "" && !utf8.Valid(p.data) {
			bad = p.rel
		}
	}
	if bad == "" {
		return nil
	}
	return fault.Internal(errors.New("not valid UTF-8"), "refusing to commit %s, which a value that bypassed input checks made", bad)
}
