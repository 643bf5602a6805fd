package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Problem is one thing check found wrong, and where.
type Problem struct {
	File  string // workspace-relative path
	Field string // a JSON path, a line number, or ""
	What  string
}

func (p Problem) value() pyjson.Value {
	return pyjson.Obj(pyjson.KV("file", p.File), pyjson.KV("field", p.Field), pyjson.KV("problem", p.What))
}

// Check verifies the whole workspace: the journal's hash chain, the state
// file (it parses, its meta is valid, and what check judges of the engine
// state, see StateCheck), and every data file against the line count and
// chain hash the state file records, and the index against the data files.
// With repair it first finishes what recovery can (an interrupted call, a
// torn line), restores a damaged state file from its previous version, and
// cuts uncommitted lines off data files, moving everything it removes to
// ucs/state/backup/ (a directory named for now). It returns the report, and
// an *Error of kind corrupt when problems remain.
//
// A symbolic link, or a file neither regular nor a directory, under ucs/
// (the agent's working state aside) is a problem named by its path, and
// repair changes nothing while one is there: ucs cannot know what it
// stands for. Without repair, Check changes nothing: a call cut short
// (its event in the journal, no process holding the lock) is a warning,
// not a problem, and the workspace is judged as its rollback will leave
// it (see cutShort).
func (l *Workspace) Check(repair bool, now time.Time, check StateCheck) (pyjson.Value, error) {
	if !l.Exists(RelState) && !l.Exists(RelStatePrev) {
		return pyjson.Value{}, fault.NotInitialized(l.root)
	}
	// Links and other files that are not the workspace's own are found
	// first, without the lock: a linked ucs/state/ holds the lock file too.
	scan := scanTree(l)
	if scan.dirLinked {
		return pyjson.Value{}, checkFailed(scan.strange, []pyjson.Member{
			pyjson.KV("ok", false), pyjson.KV("journal_events", 0), pyjson.KV("problems", problemValues(scan.strange)),
		}, repair)
	}
	lock, err := l.Lock(repair)
	if err != nil {
		return pyjson.Value{}, err
	}
	defer lock.Unlock()
	repaired := []string{}
	var warnings []string
	switch {
	case repair && len(scan.strange) > 0:
		// What a link stands for is unknown, and moving it aside could
		// take a file the user meant to keep elsewhere: repair changes
		// nothing until the links are gone (see checkFailed's hint).
	case repair:
		l.untracked()
		if repaired, err = l.repair(now); err != nil {
			return pyjson.Value{}, err
		}
	}
	c := checker{l: l, check: check, problems: scan.strange}
	if !repair {
		warnings = append(warnings, c.cutShort()...)
	}
	c.run()
	out := []pyjson.Member{
		pyjson.KV("ok", len(c.problems) == 0),
		pyjson.KV("journal_events", c.events),
		pyjson.KV("problems", problemValues(c.problems)),
	}
	if repair {
		out = append(out, pyjson.KV("repaired", repaired))
	}
	if scan.open != "" {
		warnings = append(warnings, scan.open)
	}
	if len(warnings) > 0 {
		out = append(out, pyjson.KV("warnings", warnings))
	}
	if len(c.problems) > 0 {
		return pyjson.Value{}, checkFailed(c.problems, out, repair)
	}
	return pyjson.ObjectValue(out), nil
}

// checkFailed is Check's error: its report, as the error's details, with
// a hint for the first problem.
func checkFailed(problems []Problem, out []pyjson.Member, repair bool) error {
	hint := "run `ucs check --repair`; what it cannot repair needs a backup restored by hand"
	if repair {
		hint = "these could not be repaired automatically; restore the named files from ucs/state/backup/ or a copy of the workspace"
	}
	if strings.HasPrefix(problems[0].What, notOwnFile) {
		hint = "ucs never reads or writes through a link or a file that is not regular, and `ucs check --repair` leaves a workspace holding one as it is: replace each with the file or directory it stands for (or move it away), then run `ucs check` again"
	}
	return &fault.Error{Kind: fault.KindCorrupt, Code: fault.CodeWorkspaceCorrupt, Hint: hint,
		Msg:     fmt.Sprintf("%d problem(s) in the workspace; first: %s: %s", len(problems), problems[0].File, problems[0].What),
		Details: out}
}

// cutShort prepares the checker for a call that was cut short (the
// journal holds an event the state file does not, or ends in a torn line)
// and returns the warnings that say so. Check holds the lock, so no call
// is running: the transaction is one a killed call left, and the next
// changing call (or check --repair) rolls it back as recovery does. Check
// without --repair changes nothing, so it judges the workspace as that
// rollback will leave it: without the last event, and each data file as
// long as the event recorded. An event recovery would refuse to roll back
// (it names a file outside the layout, or a link) is a problem.
func (c *checker) cutShort() []string {
	l := c.l
	state, err := readFile(l.path(RelState))
	if err != nil {
		return nil // the checker reports it
	}
	need, _, err := needsRecovery(l, state)
	if err != nil || !need {
		return nil
	}
	jt, err := readJournalTail(l)
	if err != nil {
		return nil
	}
	seq, err := committedSeq(l)
	if err != nil {
		return nil
	}
	var warnings []string
	if jt.seq == seq+1 {
		cuts, err := rollbackCuts(l, jt)
		if err != nil {
			c.add(RelJournal, "line "+itoa(int(c.linesBefore(jt))), "a call was cut short and recovery cannot roll it back: %s", fault.AsError(err).Msg)
			return nil
		}
		c.cuts, c.dropLast = map[string]int64{}, true
		for _, ct := range cuts {
			c.cuts[ct.rel] = ct.size
		}
		warnings = append(warnings, fmt.Sprintf("a call was cut short (event %d, %s, never committed); the next changing call or `ucs check --repair` rolls it back", jt.seq, opOf(jt.event)))
	}
	if jt.hasTorn && (jt.seq == seq || c.dropLast) {
		c.tornOK = true
		warnings = append(warnings, "a write to the journal was cut short (a torn last line, never committed); the next call or `ucs check --repair` cuts it off")
	}
	return warnings
}

// linesBefore is the line number of the journal's last event: one more
// than the lines before it.
func (c *checker) linesBefore(jt journalTail) int64 {
	f, err := openRead(c.l.path(RelJournal))
	if err != nil {
		return 0
	}
	defer f.Close()
	head := make([]byte, jt.start)
	if _, err := f.ReadAt(head, 0); err != nil {
		return 0
	}
	return int64(bytes.Count(head, []byte("\n"))) + 1
}

// A StateCheck judges what storage cannot: the engine state of a state
// file that parses, against the workspace's manifest (and the counters of
// its meta). It returns the problems it finds, in order, and stop when the
// state cannot be judged further (the engine does not restore): check then
// looks at nothing else of an initialized workspace.
type StateCheck func(st CheckedState) (problems []Problem, stop bool)

// CheckedState is a state file as Check hands it to a StateCheck.
type CheckedState struct {
	Doc      pyjson.Value // the whole state file
	Manifest Manifest     // the pinned manifest, a reference workspace's, or nil without Options.Manifests
	Meta     *Meta        // nil for a reference workspace
	// AtLastEvent is set when the state is at the journal's last event,
	// which left t = JournalT.
	AtLastEvent bool
	JournalT    int64
	// Read reads a workspace file (the state may name others).
	Read func(rel string) ([]byte, error)
}

func problemValues(ps []Problem) []pyjson.Value {
	out := []pyjson.Value{}
	for _, p := range ps {
		out = append(out, p.value())
	}
	return out
}

type checker struct {
	l        *Workspace
	check    StateCheck
	problems []Problem
	events   int
	lastT    int64
	lastSeq  int64

	// A call cut short (cutShort): its event is left out (dropLast), each
	// file it appended to is judged as long as the event recorded (cuts),
	// and a torn last line of the journal is no problem (tornOK).
	dropLast bool
	cuts     map[string]int64
	tornOK   bool
}

func (c *checker) add(file, field, format string, args ...any) {
	c.problems = append(c.problems, Problem{File: file, Field: field, What: fmt.Sprintf(format, args...)})
}

func (c *checker) run() {
	c.journal()
	data, err := readFile(c.l.path(RelState))
	if err != nil {
		c.add(RelState, "", "cannot read: %v", err)
		return
	}
	doc, err := pyjson.Parse(data)
	if err != nil {
		c.add(RelState, "", "%v", err)
		return
	}
	mv, ok := doc.Get("ucs")
	if !ok {
		c.reference(doc)
		return
	}
	m, err := c.l.parseMeta(mv)
	if err != nil {
		c.add(RelState, "ucs", "%v", err)
		return
	}
	raw, err := readFile(c.l.path(RelPinned))
	if err != nil {
		c.add(RelPinned, "", "cannot read: %v", err)
		return
	}
	// Without the caller's parser the manifest is not judged, and the
	// state check gets none: such a workspace keeps no index either.
	var manifest Manifest
	if parse := c.l.opts.Manifests.Parse; parse != nil {
		if manifest, err = parse(raw); err != nil {
			c.add(RelPinned, "", "%v", err)
			return
		}
	}
	atLast := c.events > 0 && m.Seq == c.lastSeq
	ps, stop := c.check(CheckedState{Doc: doc, Manifest: manifest, Meta: &m, AtLastEvent: atLast, JournalT: c.lastT, Read: c.l.ReadFile})
	c.problems = append(c.problems, ps...)
	if stop {
		return
	}
	if c.events > 0 && !atLast {
		c.add(RelState, "ucs.seq", "the state is at event %d, the journal at %d", m.Seq, c.lastSeq)
	}
	for _, rel := range countedFiles {
		c.dataFile(rel, m.Files[rel])
	}
	for _, name := range checkIndex(c.l, manifest, m.Files) { // none without a parser
		c.add(name, "", "the index does not match the knowledge files it is derived from (`ucs check --repair` rebuilds it)")
	}
}

// journal checks every event: it parses, its seq follows, its parent is the
// previous event's hash, and its hash is the hash of its content.
func (c *checker) journal() {
	j, ok, err := c.l.OpenJournal()
	if err != nil {
		c.add(RelJournal, "", "cannot read: %v", err)
		return
	}
	if !ok {
		return
	}
	defer j.Close()
	var prevT, prevSeq int64
	for {
		ev, breaks, ok := j.Next()
		if !ok {
			break
		}
		c.events++
		prevT, prevSeq = c.lastT, c.lastSeq
		for _, b := range breaks {
			if b.Field == "seq" && j.line == 1 {
				continue // check has always accepted a history that starts later
			}
			c.add(RelJournal, "line "+itoa(int(j.line))+"."+b.Field, "%s", b.What)
		}
		c.lastT, c.lastSeq = ev.TAfter, ev.Seq
	}
	if c.dropLast && c.events > 0 {
		c.events--
		c.lastT, c.lastSeq = prevT, prevSeq
	}
	var le *LineError
	switch {
	case errors.As(j.err, &le):
		c.add(RelJournal, "line "+itoa(int(le.Line)), "%v", le.Err)
	case j.err != nil:
		c.add(RelJournal, "", "cannot read: %v", j.err)
	case j.torn && !c.tornOK:
		c.add(RelJournal, "line "+itoa(int(j.line)+1), "torn line: a write was cut short")
	}
}

// dataFile checks that a data file holds exactly the committed lines, each
// a JSON object.
func (c *checker) dataFile(rel string, want FileSum) {
	data, err := readFile(c.l.path(rel))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.add(rel, "", "cannot read: %v", err)
		return
	}
	if size, ok := c.cuts[rel]; ok {
		data = data[:max(0, min(size, int64(len(data))))] // as recovery will leave it
	}
	var sum FileSum
	var seq int64 // the model log's last line's
	n := 0
	for len(data) > 0 {
		n++
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			c.add(rel, "line "+itoa(n), "torn line: a write was cut short")
			break
		}
		if v, err := pyjson.Parse(data[:i]); err != nil {
			c.add(rel, "line "+itoa(n), "%v", err)
		} else if v.Kind() != pyjson.Object {
			c.add(rel, "line "+itoa(n), "is a JSON %s, not an object", v.Kind())
		} else if rel == RelModelLog {
			s, _, err := parseModelLine(data[:i])
			switch {
			case err != nil:
				c.add(rel, "line "+itoa(n), "%v", err)
			case s <= seq:
				c.add(rel, "line "+itoa(n), "its event (%d) does not follow the line before's (%d)", s, seq)
			}
			seq = max(seq, s)
		}
		sum = sum.add(data[:i+1])
		if sum.Lines == want.Lines && sum.Hash != want.Hash {
			c.add(rel, "", "its first %d lines differ from what was committed", want.Lines)
		}
		data = data[i+1:]
	}
	switch {
	case sum.Lines < want.Lines:
		c.add(rel, "", "holds %d lines; %d were committed", sum.Lines, want.Lines)
	case sum.Lines > want.Lines:
		c.add(rel, "", "holds %d lines; only %d were committed", sum.Lines, want.Lines)
	}
}

// reference checks a workspace still in the reference's layout by loading
// it as every command would.
func (c *checker) reference(doc pyjson.Value) {
	r, err := openReference(c.l)
	if err != nil {
		c.add(RelRefIndex, "", "%v", fault.AsError(err).Msg)
		return
	}
	ps, _ := c.check(CheckedState{Doc: doc, Manifest: r.manifest})
	c.problems = append(c.problems, ps...)
	if _, err := readJSONL(c.l, RelActionLog); err != nil {
		c.add(RelActionLog, "", "%v", fault.AsError(err).Msg)
	}
}

// repair fixes what can be fixed without losing anything: see Check.
func (l *Workspace) repair(now time.Time) ([]string, error) {
	done := []string{}
	// The backup directory is made on first use: a repair with nothing to
	// cut leaves none.
	backup := ""
	save := func(rel string) error {
		if backup == "" {
			var err error
			if backup, err = newBackupDir(l, "repair-"+now.Format("20060102T150405Z")); err != nil {
				return err
			}
		}
		return copyFile(l.path(rel), filepath.Join(backup, strings.ReplaceAll(rel, "/", "_")))
	}
	if !stateSound(l) {
		// The state file is damaged: fall back to the previous commit's.
		prevSeq, perr := seqOfFile(l.path(RelStatePrev))
		if perr != nil {
			return done, nil // nothing to restore from; check reports it
		}
		jt, jerr := readJournalTail(l)
		if jerr != nil {
			return done, nil
		}
		if l.Exists(RelState) {
			if err := save(RelState); err != nil {
				return nil, err
			}
		}
		if jt.seq == prevSeq+1 {
			// The last event committed, but its state is lost: roll the event
			// back so the previous state is whole again, keeping its lines.
			if err := save(RelJournal); err != nil {
				return nil, err
			}
			cuts, err := rollbackCuts(l, jt)
			if err != nil {
				return done, nil // check reports the damage
			}
			for _, c := range cuts {
				if l.Exists(c.rel) {
					if err := save(c.rel); err != nil {
						return nil, err
					}
				}
				if err := c.apply(l); err != nil {
					return nil, err
				}
			}
			if err := truncateFile(l, RelJournal, jt.start); err != nil {
				return nil, err
			}
			done = append(done, fmt.Sprintf("rolled back event %d (%s), whose state file was damaged; its lines are in %s", jt.seq, opOf(jt.event), backup))
		}
		if err := copyFile(l.path(RelStatePrev), l.path(RelState)); err != nil {
			return nil, err
		}
		done = append(done, fmt.Sprintf("restored %s from the previous commit (event %d)", RelState, prevSeq))
	}
	rec, err := recoverWorkspace(l)
	if err != nil {
		return done, nil // check reports what is wrong
	}
	done = append(done, rec...)
	data, err := readFile(l.path(RelState))
	if err != nil {
		return done, nil
	}
	doc, err := pyjson.Parse(data)
	if err != nil {
		return done, nil
	}
	mv, ok := doc.Get("ucs")
	if !ok {
		return done, nil
	}
	m, err := l.parseMeta(mv)
	if err != nil {
		return done, nil
	}
	for _, rel := range countedFiles {
		want := m.Files[rel]
		raw, err := readFile(l.path(rel))
		if err != nil {
			continue
		}
		// Keep the committed prefix when it is intact; anything after it
		// was never committed.
		var sum FileSum
		end := 0
		for end < len(raw) && sum.Lines < want.Lines {
			i := bytes.IndexByte(raw[end:], '\n')
			if i < 0 {
				break
			}
			sum = sum.add(raw[end : end+i+1])
			end += i + 1
		}
		if sum != want || end == len(raw) {
			continue
		}
		if err := save(rel); err != nil {
			return nil, err
		}
		if err := truncateFile(l, rel, int64(end)); err != nil {
			return nil, err
		}
		done = append(done, fmt.Sprintf("cut %d uncommitted bytes off %s (kept in %s)", len(raw)-end, rel, backup))
	}
	// Without the caller's parser there is no index to judge.
	if raw, err := readFile(l.path(RelPinned)); err == nil && l.opts.Manifests.Parse != nil {
		if manifest, err := l.opts.Manifests.Parse(raw); err == nil && len(checkIndex(l, manifest, m.Files)) > 0 {
			// Derived: removed, and rebuilt by the next call that can write.
			if err := os.RemoveAll(l.path(RelIndexDir)); err != nil {
				return nil, fault.Internal(err, "remove %s", RelIndexDir)
			}
			done = append(done, "removed the index, which did not match the knowledge files; the next call rebuilds it")
		}
	}
	return done, nil
}

func seqOfFile(path string) (int64, error) {
	data, err := readFile(path)
	if err != nil {
		return 0, err
	}
	doc, err := pyjson.Parse(data)
	if err != nil {
		return 0, err
	}
	mv, _ := doc.Get("ucs")
	seq, _ := mv.Get("seq")
	n, ok := seq.Int()
	if !ok {
		return 0, errors.New("no seq")
	}
	return n, nil
}

func copyFile(src, dst string) error {
	data, err := readFile(src)
	if err != nil {
		return fault.Internal(err, "read %s", src)
	}
	if err := writeFile(dst, data); err != nil {
		return fault.Internal(err, "write %s", dst)
	}
	return nil
}

// stateSound reports whether the state file parses and its meta is valid.
func stateSound(l *Workspace) bool {
	if !l.Exists(RelState) {
		return false
	}
	_, err := committedSeq(l) // parses the whole file and validates its meta
	return err == nil
}

// notOwnFile starts the problem check reports for a link or another file
// that is not regular in the workspace's layout.
const notOwnFile = "is not the workspace's own file: "

// A treeScan is what a walk of ucs/ found that check reports besides the
// files' content.
type treeScan struct {
	// strange lists every symbolic link and every file that is neither
	// regular nor a directory, in the walk's (lexical) order. Not in the
	// agent's working state, which ucs only reads, as the user's files,
	// for resume, nor in backups, which ucs never reads and where a
	// forced init moves whatever the state directory held.
	strange []Problem
	// dirLinked is set when ucs/ or ucs/state/ is one of them: the lock
	// file is in ucs/state/.
	dirLinked bool
	// open is a warning when group or others may read or write files or
	// directories under ucs/ (made by an older ucs or the reference, or
	// loosened by hand), naming a few; "" when only the owner may. It is
	// not a problem: the workspace is sound, only exposed.
	open string
}

// scanTree walks ucs/ once, without following links.
func scanTree(l *Workspace) treeScan {
	var ts treeScan
	n := 0
	var some []string
	filepath.WalkDir(l.path("ucs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // what cannot be read is check's problem elsewhere
		}
		rel, _ := filepath.Rel(l.root, path)
		rel = filepath.ToSlash(rel)
		if !d.IsDir() && !d.Type().IsRegular() {
			if strings.HasPrefix(rel, RelWorkingState+"/") || strings.HasPrefix(rel, RelBackupDir+"/") {
				return nil
			}
			what := "a symbolic link"
			if d.Type()&fs.ModeSymlink == 0 {
				what = "neither a regular file nor a directory"
			}
			ts.strange = append(ts.strange, Problem{File: rel, What: notOwnFile + what + ", which ucs never reads or writes through"})
			ts.dirLinked = ts.dirLinked || rel == "ucs" || rel == RelStateDir
			return nil // links have no mode of their own
		}
		if !d.IsDir() && strings.HasPrefix(rel, RelWorkingState+"/") {
			// The agent's own files, written where flush says at the
			// agent's usual mode (0644): the directory, private since
			// init (0700), is what keeps them private, and it is judged.
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Mode().Perm()&0o077 == 0 {
			return nil
		}
		if n++; n <= 3 {
			some = append(some, fmt.Sprintf("%s %04o", rel, info.Mode().Perm()))
		}
		return nil
	})
	if n == 0 {
		return ts
	}
	if n > len(some) {
		some = append(some, "...")
	}
	ts.open = fmt.Sprintf("%d of the workspace's files and directories are open to group or others (%s), and they hold what the agent learned, its reasoning and tool output: run `chmod -R go-rwx %s`",
		n, strings.Join(some, ", "), fault.QuotePath(l.path("ucs")))
	return ts
}
