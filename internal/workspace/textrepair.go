package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Before input was checked at the boundary, a flag or an environment
// variable holding a byte that is not UTF-8 was committed as is: the
// journal's last event (and sometimes the state) could not be parsed, and
// every later call failed. Nothing could commit after such an event, so
// it is always the last. RepairText rolls it back as a call cut short is
// rolled back: the state of the commit before it, the files it appended
// to cut back to where it found them, its bytes kept in a backup.

// A StateReplay rebuilds the state file that event seq committed, for a
// workspace that no longer holds it (no .prev: a PostgreSQL store's
// mirror, or a .prev lost): the bridge replays the journal up to it on a
// scratch workspace. With it come the files beside it that the state
// names by hash (the book of observations, whose .prev a store does not
// keep either), which RepairText restores with it. RepairText calls it
// holding the workspace's lock, so it must not take the lock itself. It
// returns a nil state, and no error, when the history cannot rebuild it.
type StateReplay func(seq int64) (state []byte, beside []Replayed, err error)

// A Replayed file is one a StateReplay rebuilt beside the state.
type Replayed struct {
	Rel  string
	Data []byte
}

// A TextRepair is what RepairText rolled back.
type TextRepair struct {
	Seq    int64  // the event's sequence number
	Op     string // its operation
	Now    string // its clock value
	Backup string // where its bytes are kept, relative to the workspace
}

// RepairText rolls back the journal's last event when it is not valid
// UTF-8, holding the workspace's lock. The state it goes back to is the
// state file or its .prev, whichever the event's state_before names, else
// the one replay rebuilds (nil: none), which must hash to state_before
// too. ok is false when there is nothing of the kind to repair, or when
// it cannot be repaired this way (check then reports what is wrong).
func (l *Workspace) RepairText(now time.Time, replay StateReplay) (r TextRepair, ok bool, err error) {
	l.untracked()
	lock, err := l.Lock(true)
	if err != nil {
		return r, false, err
	}
	defer lock.Unlock()
	f, err := openRead(l.path(RelJournal))
	if errors.Is(err, fs.ErrNotExist) {
		return r, false, nil
	}
	if err != nil {
		return r, false, fault.Internal(err, "open %s", RelJournal)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return r, false, fault.Internal(err, "stat %s", RelJournal)
	}
	line, end, _, err := lastLine(f, st.Size(), 0)
	f.Close()
	if err != nil || line == nil || utf8.Valid(line) || end != st.Size() {
		return r, false, err
	}
	ev, err := pyjson.Parse([]byte(strings.ToValidUTF8(string(line), "\uFFFD")))
	if err != nil || ev.Kind() != pyjson.Object {
		return r, false, nil
	}
	seqV, _ := ev.Get("seq")
	seq, _ := seqV.Int()
	before := ev.StrOf("state_before")
	if seq < 2 || before == "" {
		return r, false, nil // an init's: there is no commit before it
	}
	cuts, err := rollbackCuts(l, journalTail{event: ev, seq: seq})
	if err != nil {
		return r, false, nil // a name outside the layout, a link: check reports it
	}
	// The state to go back to: the state file, when the event's state
	// never landed, else the previous commit's, else the history's.
	var restore []byte
	landed := true // the state file is the one to go back to
	for _, rel := range []string{RelState, RelStatePrev} {
		if data, err := readFile(l.path(rel)); err == nil && sha256hexOf(data) == before {
			restore = data
			break
		}
		landed = false
	}
	var beside []Replayed
	if restore == nil && replay != nil {
		data, files, err := replay(seq - 1)
		if err != nil {
			return r, false, err
		}
		if sha256hexOf(data) == before { // byte for byte the state that was committed
			restore = data
		}
		for _, f := range files {
			if validRel(f.Rel) && f.Rel != RelState && f.Rel != RelJournal {
				beside = append(beside, f)
			}
		}
	}
	if restore == nil {
		return r, false, nil
	}
	backup, err := newBackupDir(l, "repair-"+now.Format("20060102T150405Z"))
	if err != nil {
		return r, false, err
	}
	save := func(rel string) error {
		if !l.Exists(rel) {
			return nil
		}
		return copyFile(l.path(rel), filepath.Join(backup, strings.ReplaceAll(rel, "/", "_")))
	}
	files, _ := ev.Get("files")
	kept := append([]string{RelJournal, RelState}, memberKeys(files)...)
	for _, f := range beside {
		kept = append(kept, f.Rel)
	}
	for _, rel := range kept {
		if err := save(rel); err != nil {
			return r, false, err
		}
	}
	// Recovery's cuts, checked whole first: only regular files of the
	// layout, never through a link; -1, a file the event created, goes.
	for _, c := range cuts {
		if err := c.apply(l); err != nil {
			return r, false, err
		}
	}
	for _, f := range beside {
		if cur, err := readFile(l.path(f.Rel)); err == nil && string(cur) == string(f.Data) {
			continue
		}
		if err := os.WriteFile(l.path(f.Rel), f.Data, FilePerm); err != nil {
			return r, false, fault.Internal(err, "write %s", f.Rel)
		}
	}
	if !landed {
		if err := os.WriteFile(l.path(RelState), restore, FilePerm); err != nil {
			return r, false, fault.Internal(err, "write %s", RelState)
		}
	}
	if err := os.Truncate(l.path(RelJournal), end-int64(len(line))-1); err != nil {
		return r, false, fault.Internal(err, "truncate %s", RelJournal)
	}
	rel, _ := filepath.Rel(l.root, backup)
	return TextRepair{Seq: seq, Op: ev.StrOf("op"), Now: ev.StrOf("now"), Backup: filepath.ToSlash(rel)}, true, nil
}

// Note is how a check's answer says what was rolled back.
func (r TextRepair) Note() string {
	return fmt.Sprintf("rolled back event %d (%s), which held bytes that are not UTF-8 (an earlier ucs took them from a flag or the environment); its bytes are in %s", r.Seq, r.Op, r.Backup)
}

func memberKeys(v pyjson.Value) []string {
	var keys []string
	for _, m := range v.Members() {
		if validRel(m.Key) {
			keys = append(keys, m.Key)
		}
	}
	return keys
}

func sha256hexOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
