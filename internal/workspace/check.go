package bridge

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
// file (schema, grid sizes, edge count against the pinned manifest, finite
// numbers, counters against the journal), and every data file against the
// line count and chain hash the state file records. With repair it first
// finishes what recovery can (an interrupted call, a torn line), restores a
// damaged state file from its previous version, and cuts uncommitted lines
// off data files, moving everything it removes to ucs/state/backup/. It
// returns the report, and an *Error of kind corrupt when problems remain.
func (b *Bridge) Check(repair bool) (pyjson.Value, error) {
	l := b.l
	if !exists(l, relState) && !exists(l, relStatePrev) {
		return pyjson.Value{}, errNotInitialized
	}
	lock, err := lockWorkspace(l.path(relLock), repair, b.opts.LockTimeout)
	if err != nil {
		return pyjson.Value{}, err
	}
	defer lock.unlock()
	var repaired []string
	if repair {
		if repaired, err = b.repair(); err != nil {
			return pyjson.Value{}, err
		}
	}
	c := checker{l: l}
	c.run()
	out := []pyjson.Member{
		pyjson.KV("ok", len(c.problems) == 0),
		pyjson.KV("journal_events", c.events),
		pyjson.KV("problems", problemValues(c.problems)),
	}
	if repair {
		out = append(out, pyjson.KV("repaired", orEmpty(repaired)))
	}
	if len(c.problems) > 0 {
		hint := "run `ucs check --repair`; what it cannot repair needs a backup restored by hand"
		if repair {
			hint = "these could not be repaired automatically; restore the named files from ucs/state/backup/ or a copy of the workspace"
		}
		return pyjson.Value{}, &Error{Kind: KindCorrupt, Code: "workspace_corrupt", Hint: hint,
			Msg:     fmt.Sprintf("%d problem(s) in the workspace; first: %s: %s", len(c.problems), c.problems[0].File, c.problems[0].What),
			Details: out}
	}
	return pyjson.ObjectValue(out), nil
}

func problemValues(ps []Problem) []pyjson.Value {
	out := []pyjson.Value{}
	for _, p := range ps {
		out = append(out, p.value())
	}
	return out
}

type checker struct {
	l        layout
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
	data, err := readFile(c.l.path(relState))
	if err != nil {
		c.add(relState, "", "cannot read: %v", err)
		return
	}
	doc, err := pyjson.Parse(data)
	if err != nil {
		c.add(relState, "", "%v", err)
		return
	}
	mv, ok := doc.Get("ucs")
	if !ok {
		c.reference(doc)
		return
	}
	m, err := parseMeta(mv)
	if err != nil {
		c.add(relState, "ucs", "%v", err)
		return
	}
	raw, err := readFile(c.l.path(relPinned))
	if err != nil {
		c.add(relPinned, "", "cannot read: %v", err)
		return
	}
	manifest, err := torusfield.ParseManifest(raw)
	if err != nil {
		c.add(relPinned, "", "%v", err)
		return
	}
	e := torusfield.New(manifest, torusfield.Options{})
	if err := e.Restore(doc); err != nil {
		var se *torusfield.StateError
		if errors.As(err, &se) {
			c.add(relState, se.Field, "%s", se.Msg)
		} else {
			c.add(relState, "", "%v", err)
		}
		return
	}
	if m.ReportCounter >= phiReportInterval {
		c.add(relState, "ucs.report_counter", "is %d; it never reaches %d", m.ReportCounter, phiReportInterval)
	}
	if c.events > 0 {
		if m.Seq != c.lastSeq {
			c.add(relState, "ucs.seq", "the state is at event %d, the journal at %d", m.Seq, c.lastSeq)
		} else if int64(e.Grid.T) != c.lastT {
			c.add(relState, "state.t", "is %d; the journal's last event left t = %d", e.Grid.T, c.lastT)
		}
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
	j, done, ok, err := openJournal(c.l)
	if err != nil {
		c.add(relJournal, "", "cannot read: %v", err)
		return
	}
	if !ok {
		return
	}
	defer done()
	for {
		ev, breaks, ok := j.next()
		if !ok {
			break
		}
		c.events++
		for _, b := range breaks {
			if b.field == "seq" && j.line == 1 {
				continue // check has always accepted a history that starts later
			}
			c.add(relJournal, "line "+itoa(int(j.line))+"."+b.field, "%s", b.what)
		}
		c.lastT, c.lastSeq = ev.TAfter, ev.Seq
	}
	var le *lineError
	switch {
	case errors.As(j.err, &le):
		c.add(relJournal, "line "+itoa(int(le.line)), "%v", le.err)
	case j.err != nil:
		c.add(relJournal, "", "cannot read: %v", j.err)
	case j.torn:
		c.add(relJournal, "line "+itoa(int(j.line)+1), "torn line: a write was cut short")
	}
}

func strField(v pyjson.Value, key string) string {
	x, _ := v.Get(key)
	return x.Str()
}

// dataFile checks that a data file holds exactly the committed lines, each
// a JSON object.
func (c *checker) dataFile(rel string, want fileSum) {
	data, err := readFile(c.l.path(rel))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.add(rel, "", "cannot read: %v", err)
		return
	}
	var sum fileSum
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
		c.add(relRefIndex, "", "%v", AsError(err).Msg)
		return
	}
	e := torusfield.New(r.manifest, torusfield.Options{})
	if err := e.Restore(doc); err != nil {
		c.add(relState, "", "%v", err)
	}
	if _, err := readJSONL(c.l, relActionLog); err != nil {
		c.add(relActionLog, "", "%v", AsError(err).Msg)
	}
}

// repair fixes what can be fixed without losing anything: see Check.
func (b *Bridge) repair() ([]string, error) {
	l := b.l
	var done []string
	// The backup directory is made on first use: a repair with nothing to
	// cut leaves none.
	backup := ""
	save := func(rel string) error {
		if backup == "" {
			var err error
			if backup, err = newBackupDir(l, "repair-"+b.now().Format("20060102T150405Z")); err != nil {
				return err
			}
		}
		return copyFile(l.path(rel), filepath.Join(backup, strings.ReplaceAll(rel, "/", "_")))
	}
	if !stateSound(l) {
		// The state file is damaged: fall back to the previous commit's.
		prevSeq, perr := seqOfFile(l.path(relStatePrev))
		if perr != nil {
			return done, nil // nothing to restore from; check reports it
		}
		jt, jerr := readJournalTail(l)
		if jerr != nil {
			return done, nil
		}
		if exists(l, relState) {
			if err := save(relState); err != nil {
				return nil, err
			}
		}
		if jt.seq == prevSeq+1 {
			// The last event committed, but its state is lost: roll the event
			// back so the previous state is whole again, keeping its lines.
			if err := save(relJournal); err != nil {
				return nil, err
			}
			files, _ := jt.event.Get("files")
			for _, m := range files.Members() {
				if exists(l, m.Key) {
					if err := save(m.Key); err != nil {
						return nil, err
					}
				}
				if size, ok := m.Value.Int(); ok && validRel(m.Key) {
					if err := truncateTo(l, m.Key, size); err != nil {
						return nil, err
					}
				}
			}
			if err := os.Truncate(l.path(relJournal), jt.start); err != nil {
				return nil, internal(err, "truncate %s", relJournal)
			}
			done = append(done, fmt.Sprintf("rolled back event %d (%s), whose state file was damaged; its lines are in %s", jt.seq, opOf(jt.event), backup))
		}
		if err := copyFile(l.path(relStatePrev), l.path(relState)); err != nil {
			return nil, err
		}
		done = append(done, fmt.Sprintf("restored %s from the previous commit (event %d)", relState, prevSeq))
	}
	rec, err := recoverWorkspace(l)
	if err != nil {
		return done, nil // check reports what is wrong
	}
	done = append(done, rec...)
	data, err := readFile(l.path(relState))
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
	m, err := parseMeta(mv)
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
		var sum fileSum
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
		if err := os.Truncate(l.path(rel), int64(end)); err != nil {
			return nil, internal(err, "truncate %s", rel)
		}
		done = append(done, fmt.Sprintf("cut %d uncommitted bytes off %s (kept in %s)", len(raw)-end, rel, backup))
	}
	if raw, err := readFile(l.path(relPinned)); err == nil {
		if manifest, err := torusfield.ParseManifest(raw); err == nil && len(checkIndex(l, manifest, m.Files)) > 0 {
			// Derived: removed, and rebuilt by the next call that can write.
			if err := os.RemoveAll(l.path(relIndexDir)); err != nil {
				return nil, internal(err, "remove %s", relIndexDir)
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
		return internal(err, "read %s", src)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return internal(err, "write %s", dst)
	}
	return nil
}

// stateSound reports whether the state file parses and its meta is valid.
func stateSound(l layout) bool {
	if !exists(l, relState) {
		return false
	}
	_, err := committedSeq(l) // parses the whole file and validates its meta
	return err == nil
}
