package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A journalTail is what recovery needs of the journal: its last complete
// event, where that event starts, and where the complete content ends.
type journalTail struct {
	event   pyjson.Value // Null when the journal is empty
	seq     int64
	hash    string
	start   int64 // offset of the last event's line
	end     int64 // offset just past the last complete line
	size    int64 // the file's length, torn tail included
	hasTorn bool
	exists  bool
	// partial is set when only the end of a big last event was read (see
	// readJournalEnd): event holds its members from "now" on, and hash
	// and start are unknown.
	partial bool
}

// LastEvent is the journal's last complete event; ok is false when there
// is none.
func (l *Workspace) LastEvent() (ev Event, ok bool, err error) {
	jt, err := readJournalTail(l)
	if err != nil || jt.event.Kind() != pyjson.Object {
		return ev, false, err
	}
	ev, err = parseEventValue(jt.event)
	return ev, err == nil, err
}

// readJournalTail reads the last event of the journal, whole.
func readJournalTail(l *Workspace) (journalTail, error) { return readJournal(l, false) }

// readJournalEnd reads the last event of the journal, or when it is big
// (an import's, which holds a whole export package) only its end, which
// holds what a call checks before it loads the workspace: seq and
// state_after. Events are written with sorted keys, so these come after
// the input: the end is the last ,"now":" on.
func readJournalEnd(l *Workspace) (journalTail, error) { return readJournal(l, true) }

func readJournal(l *Workspace, partialOK bool) (journalTail, error) {
	var jt journalTail
	f, err := openRead(l.path(RelJournal))
	if errors.Is(err, fs.ErrNotExist) {
		return jt, nil
	}
	if err != nil {
		return jt, fault.Internal(err, "open %s", RelJournal)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return jt, fault.Internal(err, "stat %s", RelJournal)
	}
	jt.exists, jt.size = true, st.Size()
	// The last event is looked for in growing chunks from the end; one
	// longer than bigEvent (an import's) is, when partialOK, read from its
	// last chunk only.
	limit := int64(0)
	if partialOK {
		limit = bigEvent
	}
	line, end, tail, err := lastLine(f, jt.size, limit)
	if err != nil {
		return jt, err
	}
	if tail != nil {
		if ev, ok := eventEnd(tail); ok {
			jt.event, jt.partial = ev, true
			jt.end = end
			jt.hasTorn = jt.end < jt.size
			seq, _ := ev.Get("seq")
			jt.seq, _ = seq.Int()
			return jt, nil
		}
		if line, end, _, err = lastLine(f, jt.size, 0); err != nil {
			return jt, err
		}
	}
	jt.end, jt.hasTorn = end, end < jt.size
	if line == nil {
		return jt, nil
	}
	jt.start = end - int64(len(line)) - 1
	if jt.event, err = parseEvent(line); err != nil {
		return jt, fault.Corrupt(fmt.Errorf("last event: %v", err), RelJournal)
	}
	seq, _ := jt.event.Get("seq")
	jt.seq, _ = seq.Int()
	h, _ := jt.event.Get("hash")
	jt.hash = h.Str()
	return jt, nil
}

// eventEnd decodes the end of a big event from the last chunk of the
// journal, which ends with the event's newline: its members from "now" on
// (sorted keys put them after the input). ok is false when the chunk does
// not hold them.
func eventEnd(tail []byte) (pyjson.Value, bool) {
	last := len(tail) - 1
	i := bytes.LastIndex(tail[:last], []byte(`,"now":"`))
	if i < 0 {
		return pyjson.Value{}, false
	}
	ev, err := pyjson.Parse(append([]byte{'{'}, tail[i+1:last]...))
	if _, hasSeq := ev.Get("seq"); err != nil || !hasSeq || ev.StrOf("state_after") == "" {
		return pyjson.Value{}, false
	}
	return ev, true
}

// bigEvent is the size above which parseEvent leaves out the event's
// input: an import's input holds a whole export package.
const bigEvent = 64 << 10

// parseEvent decodes a journal event. A big event is decoded without its
// input and args, which no reader of the journal's tail needs (recovery
// needs its files, a transaction its state_after, verify its outcome): what
// an import recorded costs a call no more than any event.
func parseEvent(line []byte) (pyjson.Value, error) {
	if len(line) <= bigEvent {
		return pyjson.Parse(line)
	}
	if !gjson.ValidBytes(line) {
		return pyjson.Parse(line) // for the error
	}
	var ms []pyjson.Member
	var err error
	gjson.ParseBytes(line).ForEach(func(key, value gjson.Result) bool {
		if key.Str == "input" || key.Str == "args" {
			return true
		}
		var v pyjson.Value
		if v, err = pyjson.Parse([]byte(value.Raw)); err != nil {
			return false
		}
		ms = append(ms, pyjson.KV(key.Str, v))
		return true
	})
	if err != nil {
		return pyjson.Value{}, err
	}
	return pyjson.ObjectValue(ms), nil
}

// committedSeq returns the sequence number the state file records, 0 for a
// reference workspace or none, after checking the whole file parses and its
// meta is valid: recovery changes files on the strength of this number, so
// it must never come from a damaged state file.
func committedSeq(l *Workspace) (int64, error) {
	data, err := readFile(l.path(RelState))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fault.Internal(err, "read %s", RelState)
	}
	if _, err := pyjson.Parse(data); err != nil {
		return 0, fault.Corrupt(err, RelState)
	}
	m, _, err := l.metaOf(data)
	if err != nil {
		return 0, fault.Corrupt(err, RelState)
	}
	return m.Seq, nil
}

// stateSeq reads ucs.seq from a state file's bytes without decoding the
// rest: the "ucs" member comes first, and only it is parsed, by the parser
// the full load uses (metaOf), so the two agree even on a file with a
// repeated key. It is only the cheap test of whether recovery is needed;
// recovery itself decides on committedSeq. A file without a ucs member is
// at 0 only if it is valid JSON (a reference state file); one whose ucs
// member is not its first was not written by ucs.
func stateSeq(data []byte) (int64, error) {
	mv, ours := pyjson.LeadMember(data, "ucs")
	if !ours {
		if !gjson.ValidBytes(data) {
			_, err := pyjson.Parse(data) // for the offset of the damage
			if err == nil {
				err = errors.New("not valid JSON")
			}
			return 0, fault.Corrupt(err, RelState)
		}
		if gjson.GetBytes(data, "ucs").Exists() {
			return 0, fault.Corrupt(errNotLead, RelState)
		}
		return 0, nil
	}
	seq, ok := mv.Get("seq")
	if !ok {
		return 0, nil
	}
	n, isInt := seq.Int()
	if !isInt || n < 0 {
		return 0, fault.Corrupt(errors.New("ucs.seq must be a non-negative integer"), RelState)
	}
	return n, nil
}

// needsRecovery reports whether a call was cut short: the journal holds an
// event the state file (whose bytes are given) does not, or a torn line.
func needsRecovery(l *Workspace, state []byte) (bool, journalTail, error) {
	jt, err := readJournalEnd(l)
	if err != nil || !jt.exists {
		return false, jt, err
	}
	seq, err := stateSeq(state)
	if err != nil {
		return false, jt, err
	}
	return jt.hasTorn || jt.seq != seq, jt, nil
}

// recover brings the workspace back to its last commit. A call killed after
// appending its journal event but before replacing the state file is rolled
// back: every file it appended to is cut back to the length the event
// recorded (a file it created is removed), then the event is removed. A torn
// journal line is cut off. It reports what it did, or nil when nothing was
// to be done. It must run under the exclusive lock.
func recoverWorkspace(l *Workspace) ([]string, error) {
	jt, err := readJournalTail(l)
	if err != nil || !jt.exists {
		return nil, err
	}
	seq, err := committedSeq(l)
	if err != nil {
		return nil, err
	}
	var done []string
	end := jt.end
	switch {
	case jt.seq == seq:
	case jt.seq == seq+1:
		l.untracked()
		cuts, err := rollbackCuts(l, jt)
		if err != nil {
			return nil, err
		}
		for _, c := range cuts {
			if err := c.apply(l); err != nil {
				return nil, err
			}
		}
		end = jt.start
		done = append(done, fmt.Sprintf("rolled back event %d (%s), which had not committed", jt.seq, opOf(jt.event)))
		if n, err := removeStateTemps(l); err != nil {
			return nil, err
		} else if n > 0 {
			done = append(done, fmt.Sprintf("removed %d unfinished state file(s)", n))
		}
	default:
		return nil, fault.Corrupt(fmt.Errorf("the journal ends at event %d but the state file is at %d", jt.seq, seq), RelJournal)
	}
	if end < jt.size {
		l.untracked()
		if err := truncateFile(l, RelJournal, end); err != nil {
			return nil, err
		}
		if jt.hasTorn {
			done = append(done, "cut a torn line off the journal")
		}
	}
	return done, nil
}

func opOf(ev pyjson.Value) string {
	op, _ := ev.Get("op")
	return op.Str()
}

// removeStateTemps removes the temporary files a commit cut short left
// beside the state file (renameio names them "." + the name + digits),
// and returns how many there were. Only a call holding the workspace
// exclusively may: another call's commit would be writing one.
func removeStateTemps(l *Workspace) (int, error) {
	dir := filepath.Dir(l.path(RelState))
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fault.Internal(err, "read %s", RelStateDir)
	}
	prefix := "." + filepath.Base(RelState)
	n := 0
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || rest == "" || strings.Trim(rest, "0123456789") != "" || !e.Type().IsRegular() {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, fault.Internal(err, "remove %s", e.Name())
		}
		n++
	}
	return n, nil
}

// A cut is what rolling an event back does to one file it appended to:
// cut it back to size, or remove it when size is -1 (the event created it).
type cut struct {
	rel  string
	size int64
}

// rollbackCuts reads what rolling back the journal's last event would do,
// and checks it all before recovery changes anything: every file the event
// names must be a file of the layout (layoutRel: not "..", not absolute,
// not a name the layout does not have) in real directories, and one that
// exists must be a regular file.
// Anything else is damage to report, not an instruction: a journal comes
// with its workspace, from wherever that came, and must not make recovery
// truncate or remove a file outside the workspace or one it never wrote.
func rollbackCuts(l *Workspace, jt journalTail) ([]cut, error) {
	bad := func(format string, args ...any) error {
		return fault.Corrupt(fmt.Errorf("event %d: "+format, append([]any{jt.seq}, args...)...), RelJournal)
	}
	files, _ := jt.event.Get("files")
	var cuts []cut
	for _, m := range files.Members() {
		size, ok := m.Value.Int()
		if !ok || size < -1 || !validRel(m.Key) || !layoutRel(m.Key) {
			return nil, bad("names %q, which is not a file of the workspace's layout", m.Key)
		}
		if err := l.realDirOf(m.Key); err != nil {
			return nil, err
		}
		fi, err := os.Lstat(l.path(m.Key))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, fault.Internal(err, "stat %s", m.Key)
		case fi.Mode()&os.ModeSymlink != 0:
			return nil, fault.NotRegular(l.path(m.Key), "a symbolic link")
		case !fi.Mode().IsRegular():
			return nil, fault.NotRegular(l.path(m.Key), "not a regular file")
		}
		cuts = append(cuts, cut{m.Key, size})
	}
	return cuts, nil
}

// apply makes the cut, never through a link.
func (c cut) apply(l *Workspace) error {
	if c.size < 0 {
		return removeFile(l, c.rel)
	}
	return truncateFile(l, c.rel, c.size)
}

// removeFile removes a regular file of the workspace; a link or anything
// else in its place is left as it is, and is an error.
func removeFile(l *Workspace, rel string) error {
	fi, err := os.Lstat(l.path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err == nil && !fi.Mode().IsRegular() {
		return fault.NotRegular(l.path(rel), fileKind(fi))
	}
	if err := os.Remove(l.path(rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fault.Internal(err, "remove %s", rel)
	}
	return nil
}

// truncateFile cuts a regular file of the workspace back to size, never
// through a link (os.Truncate would follow one). A missing file is left
// missing, and a file no longer than size as it is: a cut never grows a
// file.
func truncateFile(l *Workspace, rel string, size int64) error {
	f, err := openFile(l.path(rel), os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fault.Internal(err, "open %s", rel)
	}
	if st, serr := f.Stat(); serr == nil && st.Size() <= size {
		f.Close()
		return nil
	}
	err = f.Truncate(size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fault.Internal(err, "truncate %s", rel)
	}
	return nil
}

// fileKind names what a file that is not regular is, for an error.
func fileKind(fi fs.FileInfo) string {
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return "a symbolic link"
	case fi.IsDir():
		return "a directory"
	}
	return "not a regular file"
}

// validRel accepts the workspace-relative paths the journal may name:
// under ucs/, with no way out of the workspace.
func validRel(rel string) bool {
	if len(rel) < 4 || rel[:4] != "ucs/" {
		return false
	}
	for _, part := range strings.Split(rel, "/") {
		if part == ".." || part == "" {
			return false
		}
	}
	return true
}
