package pgstore

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// What a call changed, from what its commits say they wrote: the
// workspace logs every file its commits write (workspace.WriteLog), so a
// call that only commits (a report, a consult: nearly every call) needs
// no look at the mirror's files before or after it. A call that changed
// files outside a commit (a recovery, a migration's backup, a forced init,
// a repair) leaves the log untracked; so does a journal that did not grow
// from the length the store holds. Such a call is compared with the store
// instead (storedBefore): every stored file of the mirror counts as
// written anew, and cutBack keeps what the store already holds of the
// journal.

// A tracker finds what a call changed in the mirror dir: from the call's
// write log, or (no log, or a call that creates or judges the workspace)
// from a scan before and one after the call.
type tracker struct {
	dir    string
	log    *workspace.WriteLog
	before map[string]fileInfo // the scan before the call (no log)
}

// track starts tracking a call on the mirror dir. A nil log, and the calls
// that rebuild or create the workspace (opts.Create, opts.Fresh: init,
// check, verify, rare), scan.
func track(dir string, log *workspace.WriteLog, opts CallOptions) (*tracker, error) {
	t := &tracker{dir: dir, log: log}
	if log != nil {
		log.Root = dir
		log.Reset()
	}
	if opts.Create || opts.Fresh {
		t.log = nil
	}
	if t.log == nil || checkWrites {
		var err error
		if t.before, err = scan(dir); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// changes is what the call changed (see changes in changes.go), and the
// journal's length after it.
func (t *tracker) changes(ctx context.Context, q querier, name string, r row) (cs []change, journal []byte, rewritten bool, journalSize int64, err error) {
	if t.before != nil {
		after, err := scan(t.dir)
		if err != nil {
			return nil, nil, false, 0, err
		}
		cs, journal, rewritten, err = changes(t.dir, t.before, after)
		if err != nil || t.log == nil {
			return cs, journal, rewritten, after[workspace.RelJournal].size, err
		}
		if err := t.compare(r, cs, journal, rewritten); err != nil {
			return nil, nil, false, 0, err
		}
	}
	journalSize, err = fileSize(filepath.Join(t.dir, filepath.FromSlash(workspace.RelJournal)))
	if err != nil {
		return nil, nil, false, 0, err
	}
	cs, journal, ok, err := logged(t.dir, t.log, r)
	if err != nil || ok {
		return cs, journal, false, journalSize, err
	}
	before, err := storedBefore(ctx, q, name)
	if err != nil {
		return nil, nil, false, 0, err
	}
	after, err := scan(t.dir)
	if err != nil {
		return nil, nil, false, 0, err
	}
	cs, journal, rewritten, err = changes(t.dir, before, after)
	return cs, journal, rewritten, after[workspace.RelJournal].size, err
}

// logged is what the log says the call changed, in path order, and
// whether the log holds all of it: false when it is untracked, or when the
// journal was not appended to where the store's ends.
func logged(dir string, log *workspace.WriteLog, r row) (cs []change, journal []byte, ok bool, err error) {
	if log.Untracked {
		return nil, nil, false, nil
	}
	if j := log.File(workspace.RelJournal); j != nil {
		if j.Whole || j.Removed || j.Off != r.journal {
			return nil, nil, false, nil
		}
		journal = j.Data
	}
	files := slices.Clone(log.Files)
	slices.SortFunc(files, func(a, b workspace.FileWrite) int { return cmp.Compare(a.Rel, b.Rel) })
	for _, f := range files {
		keep, appendOnly := stored(f.Rel)
		if !keep || f.Rel == workspace.RelJournal {
			continue
		}
		switch {
		case f.Removed:
			cs = append(cs, change{path: f.Rel, removed: true, appended: appendOnly})
		case f.Whole && appendOnly:
			cs = append(cs, change{path: f.Rel, appended: true, rewrite: true, data: f.Data})
		case f.Whole:
			cs = append(cs, change{path: f.Rel, data: f.Data})
		case appendOnly && len(f.Data) > 0:
			cs = append(cs, change{path: f.Rel, appended: true, off: f.Off, data: f.Data})
		case !appendOnly:
			// Appended to a file stored whole: it is stored again whole.
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Rel)))
			if err != nil {
				return nil, nil, false, err
			}
			cs = append(cs, change{path: f.Rel, data: data})
		}
	}
	return cs, journal, true, nil
}

// storedBefore is what the store holds of the workspace, as a scan of the
// mirror before the call would say it if every file had been written anew
// since: each stored file's path, with nothing a file could match.
func storedBefore(ctx context.Context, q querier, name string) (map[string]fileInfo, error) {
	rows, err := q.Query(ctx, `SELECT path FROM ucs_chunks WHERE workspace = $1 GROUP BY path
		UNION SELECT path FROM ucs_blobs WHERE workspace = $1 AND data IS NOT NULL`, name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	unmatched := fileInfo{size: -1, inode: ^uint64(0)}
	out := map[string]fileInfo{workspace.RelJournal: unmatched}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out[p] = unmatched
	}
	return out, rows.Err()
}

func fileSize(name string) (int64, error) {
	st, err := os.Stat(name)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// checkWrites makes every call that uses its write log scan the mirror
// too, and fail when the log, where it is tracked, says otherwise than the
// scans (the tests set it: export_test.go).
var checkWrites bool

// compare fails when the log does not say what the scans found.
func (t *tracker) compare(r row, cs []change, journal []byte, rewritten bool) error {
	lcs, ljournal, ok, err := logged(t.dir, t.log, r)
	if err != nil || !ok {
		return err // untracked: the scans are what counts
	}
	type view struct {
		cs        []change
		journal   string
		rewritten bool
	}
	norm := func(cs []change) []change {
		out := make([]change, 0, len(cs))
		for _, c := range cs {
			if len(c.data) == 0 {
				c.data = nil
			}
			out = append(out, c)
		}
		return out
	}
	scanned, fromLog := view{norm(cs), string(journal), rewritten}, view{norm(lcs), string(ljournal), false}
	if !reflect.DeepEqual(scanned, fromLog) {
		return fmt.Errorf("the write log differs from the scan:\nscan %+v\nlog  %+v", summary(scanned.cs, journal), summary(fromLog.cs, ljournal))
	}
	return nil
}

func summary(cs []change, journal []byte) []string {
	out := []string{fmt.Sprintf("journal %d bytes", len(journal))}
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s removed=%v appended=%v rewrite=%v off=%d len=%d shrunk=%v", c.path, c.removed, c.appended, c.rewrite, c.off, len(c.data), c.shrunk))
	}
	return out
}
