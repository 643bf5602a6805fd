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
	"github.com/unified-cognitive-substrate/ucs/torusfield"
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
func (l *Workspace) Check(repair bool, now time.Time, check StateCheck) (pyjson.Value, error) {
	if !l.Exists(RelState) && !l.Exists(RelStatePrev) {
		return pyjson.Value{}, fault.NotInitialized(l.root)
	}
	lock, err := l.Lock(repair)
	if err != nil {
		return pyjson.Value{}, err
	}
	defer lock.Unlock()
	repaired := []string{}
	if repair {
		if repaired, err = l.repair(now); err != nil {
			return pyjson.Value{}, err
		}
	}
	c := checker{l: l, check: check}
	c.run()
	out := []pyjson.Member{
		pyjson.KV("ok", len(c.problems) == 0),
		pyjson.KV("journal_events", c.events),
		pyjson.KV("problems", problemValues(c.problems)),
	}
	if repair {
		out = append(out, pyjson.KV("repaired", repaired))
	}
	if w := openToOthers(l); w != "" {
		out = append(out, pyjson.KV("warnings", []string{w}))
	}
	if len(c.problems) > 0 {
		hint := "run `ucs check --repair`; what it cannot repair needs a backup restored by hand"
		if repair {
			hint = "these could not be repaired automatically; restore the named files from ucs/state/backup/ or a copy of the workspace"
		}
		return pyjson.Value{}, &fault.Error{Kind: fault.KindCorrupt, Code: "workspace_corrupt", Hint: hint,
			Msg:     fmt.Sprintf("%d problem(s) in the workspace; first: %s: %s", len(c.problems), c.problems[0].File, c.problems[0].What),
			Details: out}
	}
	return pyjson.ObjectValue(out), nil
}

// A StateCheck judges what storage cannot: the engine state of a state
// file that parses, against the workspace's manifest (and the counters of
// its meta). It returns the problems it finds, in order, and stop when the
// state cannot be judged further (the engine does not restore): check then
// looks at nothing else of an initialized workspace.
type StateCheck func(st CheckedState) (problems []Problem, stop bool)

// CheckedState is a state file as Check hands it to a StateCheck.
type CheckedState struct {
	Doc      pyjson.Value         // the whole state file
	Manifest *torusfield.Manifest // the pinned manifest, or a reference workspace's
	Meta     *Meta                // nil for a reference workspace
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
	manifest, err := torusfield.ParseManifest(raw)
	if err != nil {
		c.add(RelPinned, "", "%v", err)
		return
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
	for _, name := range checkIndex(c.l, manifest, m.Files) {
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
	for {
		ev, breaks, ok := j.Next()
		if !ok {
			break
		}
		c.events++
		for _, b := range breaks {
			if b.Field == "seq" && j.line == 1 {
				continue // check has always accepted a history that starts later
			}
			c.add(RelJournal, "line "+itoa(int(j.line))+"."+b.Field, "%s", b.What)
		}
		c.lastT, c.lastSeq = ev.TAfter, ev.Seq
	}
	var le *LineError
	switch {
	case errors.As(j.err, &le):
		c.add(RelJournal, "line "+itoa(int(le.Line)), "%v", le.Err)
	case j.err != nil:
		c.add(RelJournal, "", "cannot read: %v", j.err)
	case j.torn:
		c.add(RelJournal, "line "+itoa(int(j.line)+1), "torn line: a write was cut short")
	}
}

func strField(v pyjson.Value, key string) string {
	x, _ := v.Get(key)
	return x.Str()
}

// dataFile checks that a data file holds exactly the committed lines, each
// a JSON object.
func (c *checker) dataFile(rel string, want FileSum) {
	data, err := readFile(c.l.path(rel))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.add(rel, "", "cannot read: %v", err)
		return
	}
	var sum FileSum
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
	if raw, err := readFile(l.path(RelPinned)); err == nil {
		if manifest, err := torusfield.ParseManifest(raw); err == nil && len(checkIndex(l, manifest, m.Files)) > 0 {
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

// openToOthers returns a warning when group or others may read or write
// files or directories under ucs/ (made by an older ucs or the reference,
// or loosened by hand), naming a few; "" when only the owner may. It is
// not a problem: the workspace is sound, only exposed.
func openToOthers(l *Workspace) string {
	n := 0
	var some []string
	filepath.WalkDir(l.path("ucs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() && !d.Type().IsRegular() {
			return nil // what cannot be read is check's problem elsewhere; links have no mode of their own
		}
		info, err := d.Info()
		if err != nil || info.Mode().Perm()&0o077 == 0 {
			return nil
		}
		if n++; n <= 3 {
			rel, _ := filepath.Rel(l.root, path)
			some = append(some, fmt.Sprintf("%s %04o", filepath.ToSlash(rel), info.Mode().Perm()))
		}
		return nil
	})
	if n == 0 {
		return ""
	}
	if n > len(some) {
		some = append(some, "...")
	}
	return fmt.Sprintf("%d of the workspace's files and directories are open to group or others (%s), and they hold what the agent learned, its reasoning and tool output: run `chmod -R go-rwx %s`",
		n, strings.Join(some, ", "), fault.QuotePath(l.path("ucs")))
}
