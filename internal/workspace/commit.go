package bridge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/google/renameio/v2"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A Call is one operation with its arguments (flags, as an object) and its
// stdin input (an object, or null): exactly what the journal records and
// what a replay feeds back.
type Call struct {
	Op    string
	Args  pyjson.Value
	Input pyjson.Value
}

// crashPoint is called between the steps of a commit. Tests set crashHook
// to simulate a process killed at that instant; it is nil otherwise.
func crashPoint(stage string) {
	if crashHook != nil {
		crashHook(stage)
	}
}

var crashHook func(stage string)

// commit writes the session's changes: the journal event first, then the
// appends, then the state file, whose atomic replacement commits the call
// (docs/storage.md).
func (s *session) commit(c Call, tBefore int) error {
	if err := s.indexPending(); err != nil {
		return err
	}
	m := s.meta.clone()
	m.Seq++
	for _, p := range s.pending {
		if slices.Contains(countedFiles, p.rel) {
			m.Files[p.rel] = m.Files[p.rel].add(p.data)
		}
	}
	// The "ucs" member comes first so a call can read ucs.seq without
	// decoding the engine state; the reference's loader ignores it.
	// Compact: a third smaller than the reference's indented form, which
	// every call writes, hashes and syncs; the reference reads it the same.
	var stateBytes []byte
	if s.storedState != nil {
		stateBytes = torusfield.AppendStoredState(nil, s.storedState, pyjson.KV("ucs", m.value()))
	} else {
		stateBytes = s.engine.AppendState(nil, pyjson.KV("ucs", m.value()))
	}
	sum := sha256.Sum256(stateBytes)
	stateAfter := hex.EncodeToString(sum[:])
	s.tm.mark("encode")

	// An init is the workspace's first event: nothing in the state
	// directory is committed yet (a forced init moved it all aside), so
	// whatever a crashed init left there is overwritten from the start.
	first := c.Op == "init"
	if first {
		// A crashed init may have left a temporary state file.
		if _, err := removeStateTemps(s.l); err != nil {
			return err
		}
	}
	// Where each file stands before the call: recovery truncates back to it.
	var order []string
	sizes := map[string]int64{}
	for _, p := range s.pending {
		if _, ok := sizes[p.rel]; ok {
			continue
		}
		size, err := appendOffset(s.l, p.rel)
		if err != nil {
			return err
		}
		if first && strings.HasPrefix(p.rel, relStateDir+"/") {
			size = -1
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
	jt := s.journal
	if !jt.exists || jt.partial {
		var err error
		if jt, err = readJournalTail(s.l); err != nil {
			return err
		}
	}
	if jt.seq != s.meta.Seq {
		return corrupt(fmt.Errorf("the journal ends at event %d but the state file is at %d", jt.seq, s.meta.Seq), relJournal)
	}
	parent, journalSize := jt.hash, jt.end
	event := Event{
		Seq: m.Seq, Parent: parent, Op: c.Op, Args: c.Args, Input: c.Input, Now: isoTime(s.now),
		TBefore: int64(tBefore), TAfter: int64(s.engine.Grid.T),
		StateBefore: s.stateHash, StateAfter: stateAfter, Files: pyjson.ObjectValue(files),
		Format: min(m.Format, EventFormat), Model: m.Model, Agent: s.agentID,
	}
	line := event.seal()
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
	jf, newDirs, err := writeAt(s.l, relJournal, journalSize, line)
	if err != nil {
		return err
	}
	// The new state's temporary file is created and written while the
	// journal event syncs: nothing reads it before the rename, and a call
	// cut short leaves it unnamed.
	type tempFile struct {
		pf  *renameio.PendingFile
		err error
	}
	tempDone := make(chan tempFile, 1)
	go func() {
		pf, err := newStateFile(s.l, relState, stateBytes)
		tempDone <- tempFile{pf, err}
	}()
	if together {
		opened, rels = append(opened, jf), append(rels, relJournal)
	} else {
		err = closeSynced(jf, relJournal)
	}
	temp := <-tempDone
	if temp.pf != nil {
		defer temp.pf.Cleanup() // a no-op once the rename is done
	}
	if err == nil {
		err = temp.err
	}
	if err != nil {
		return err
	}
	pf := temp.pf
	crashPoint("journal")
	s.tm.mark("journal")
	// Write every append and sync them all at once with the new state;
	// only then rename the state into place, the commit point.
	for _, rel := range order {
		var buf bytes.Buffer
		for _, p := range s.pending {
			if p.rel == rel {
				buf.Write(p.data)
			}
		}
		f, made, err := writeAt(s.l, rel, sizes[rel], buf.Bytes())
		if err != nil {
			return err
		}
		newDirs = append(newDirs, made...)
		opened, rels = append(opened, f), append(rels, rel)
		crashPoint("append " + rel)
	}
	// Linking the committed state as .prev drops the previous .prev, and
	// freeing that file costs the file system about 0.2 ms. The link need
	// only exist before the rename, so it is made while the files sync.
	prevDone := make(chan error, 1)
	go func() { prevDone <- keepPrevious(s.l) }()
	group := append(opened, pf.File)
	for _, f := range group {
		startWriteback(f) // all their data in flight before the first fsync waits
	}
	err = syncAll(group, append(rels, relState))
	if perr := <-prevDone; err == nil {
		err = perr
	}
	if err != nil {
		return err
	}
	for i, f := range opened {
		if err := f.Close(); err != nil {
			return internal(err, "close %s", rels[i])
		}
	}
	opened = nil
	s.tm.mark("appends")
	crashPoint("prev")
	if s.dirsSynced != nil {
		if err := <-s.dirsSynced; err != nil {
			return err
		}
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return internal(err, "replace %s", relState)
	}
	// The rename and any file or directory this commit created are
	// durable only once their directories are.
	if err := syncDirs(dirsToSync(s.l, order, sizes, newDirs)); err != nil {
		return err
	}
	s.tm.mark("state")
	crashPoint("committed")
	if c.Op == "adopt" || (s.snapshotEvery > 0 && m.Seq%int64(s.snapshotEvery) == 0) {
		if err := writeSnapshot(s.l, m.Seq); err != nil {
			s.warn("the commit holds, but its snapshot failed: " + err.Error())
		}
	}
	s.meta, s.stateHash, s.pending, s.storedState, s.dirsSynced = m, stateAfter, nil, nil, nil
	s.journal = journalTail{} // a later commit in this call (after an adopt) reads the new end
	if s.rebuildAfter {
		// The index is derived: a failed rebuild leaves it stale, and
		// searches read the data files until a later call rebuilds it.
		s.index, s.rebuildAfter = nil, false
		if err := s.rebuildIndex(); err != nil {
			s.warn("the commit holds, but rebuilding the index failed (searches read the knowledge files until it is rebuilt): " + AsError(err).Msg)
		}
	}
	return nil
}

// keepPrevious hard-links the committed state file as its .prev before it
// is replaced, so check --repair can fall back to it if the new one is
// ever damaged. Linking costs two system calls and copies nothing.
func keepPrevious(l layout) error {
	prev := l.path(relStatePrev)
	if err := os.Remove(prev); err != nil && !os.IsNotExist(err) {
		return internal(err, "remove %s", relStatePrev)
	}
	if err := os.Link(l.path(relState), prev); err != nil && !os.IsNotExist(err) {
		return internal(err, "link %s", relStatePrev)
	}
	return nil
}

// dirsToSync lists the state directory, the directory of every file a
// commit created and the directories whose entries it changed by creating
// directories (newDirs), once each, as paths.
func dirsToSync(l layout, order []string, sizes map[string]int64, newDirs []string) []string {
	dirs := []string{l.path(relStateDir)}
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
		d, err := openRead(path)
		if err != nil {
			return internal(err, "open %s", path)
		}
		dirs = append(dirs, d)
	}
	return syncAll(dirs, paths)
}

// syncDir fsyncs one directory.
func syncDir(dir string) error {
	f, err := openRead(dir)
	if err != nil {
		return internal(err, "open %s", dir)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return internal(err, "sync %s", dir)
	}
	return nil
}
