package pgstore

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// What a call changed in the mirror: a scan of its files before the call
// and one after. A file whose size, modification time or inode moved
// changed; an append-only file (JSON lines, the Markdown files for people)
// that is the same file (inode), grew, and still ends, where it ended,
// with the same bytes was appended to (the workspace only appends to
// them, cuts them back in a repair, or writes them anew: init --force);
// anything else was written whole. A journal or an append-only file that
// is not an append is compared with what the store holds (cutBack): what
// the store already holds of it is kept, and only the rest changes. Derived
// files are not stored.

// fileInfo is what a scan keeps of a file.
type fileInfo struct {
	size  int64
	mtime int64
	inode uint64 // a file written anew (a rename, a re-creation) has another
	tail  []byte // an append-only file's last bytes
}

// tailBytes is how many last bytes of an append-only file a scan keeps.
const tailBytes = 64

// stored reports whether a mirror's file is stored, and whether it is
// append-only.
func stored(rel string) (keep, appendOnly bool) {
	base := path.Base(rel)
	switch {
	case strings.HasPrefix(base, "."), // renameio's temporary files
		rel == workspace.RelLock,
		strings.HasPrefix(rel, workspace.RelStateDir+"/pending."),
		strings.HasPrefix(rel, workspace.RelIndexDir),
		strings.HasPrefix(rel, workspace.RelTermsDir+"/"),
		strings.HasPrefix(rel, workspace.RelRecordsDir+"/"),
		strings.HasPrefix(rel, workspace.RelStateDir+"/snapshots/"),
		strings.HasPrefix(rel, workspace.RelObservations+".idx"),
		strings.HasPrefix(rel, workspace.RelObservations+".sum"),
		// The previous commit's state and book, kept for a local repair:
		// the store keeps every commit.
		rel == workspace.RelStatePrev, rel == workspace.RelObservations+".prev":
		return false, false
	}
	if strings.HasSuffix(rel, ".jsonl") && !strings.HasPrefix(rel, workspace.RelBackupDir+"/") {
		return true, true
	}
	if path.Dir(rel) == workspace.RelKnowledgeDir && strings.HasSuffix(rel, ".md") {
		return true, true
	}
	return true, false
}

// scan lists the stored files of a mirror.
func scan(dir string) (map[string]fileInfo, error) {
	out := map[string]fileInfo{}
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(dir, name)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(rel, workspace.RelIndexDir) || rel == workspace.RelTermsDir || rel == workspace.RelRecordsDir ||
				rel == workspace.RelStateDir+"/snapshots") {
				return filepath.SkipDir
			}
			return nil
		}
		keep, appendOnly := stored(rel)
		if !keep || !d.Type().IsRegular() {
			return nil
		}
		st, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		fi := fileInfo{size: st.Size(), mtime: st.ModTime().UnixNano()}
		if sys, ok := st.Sys().(*syscall.Stat_t); ok {
			fi.inode = sys.Ino
		}
		if appendOnly && fi.size > 0 {
			fi.tail = readAt(name, max(0, fi.size-tailBytes), int(min(fi.size, tailBytes)))
		}
		out[rel] = fi
		return nil
	})
	return out, err
}

func readAt(name string, off int64, n int) []byte {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	return b
}

// A change is one stored file's change.
type change struct {
	path    string
	removed bool
	// an append-only file: its bytes from off (0 and rewrite: the whole
	// file, replacing its chunks)
	appended bool
	rewrite  bool
	off      int64
	data     []byte
	// shrunk: an append-only file rewritten whole that is shorter than it
	// was, the same file: maybe cut back (cutBack decides). cut: it was,
	// to off; the store's chunks past off go.
	shrunk, cut bool
}

// changes compares two scans of a mirror and reads what changed, in path
// order. The journal's new events are given apart, as whole lines.
func changes(dir string, before, after map[string]fileInfo) (cs []change, journal []byte, journalRewritten bool, err error) {
	var paths []string
	for p := range before {
		paths = append(paths, p)
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		b, had := before[p]
		a, has := after[p]
		if had && has && a.size == b.size && a.mtime == b.mtime && a.inode == b.inode {
			continue
		}
		_, appendOnly := stored(p)
		name := filepath.Join(dir, filepath.FromSlash(p))
		if !has {
			cs = append(cs, change{path: p, removed: true, appended: appendOnly})
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, nil, false, err
		}
		data = data[:min(int64(len(data)), a.size)]
		// Appended to: the same file (inode), longer, still ending where
		// it ended with the same bytes. Anything else is written again.
		grew := had && appendOnly && a.inode == b.inode && a.size >= b.size &&
			bytes.Equal(b.tail, data[max(0, b.size-tailBytes):b.size])
		if p == workspace.RelJournal {
			// Whole events only: a torn last line was never committed.
			from := int64(0)
			if grew {
				from = b.size
			}
			end := int64(bytes.LastIndexByte(data, '\n') + 1)
			if end > from {
				journal = data[from:end]
			}
			journalRewritten = !grew
			continue
		}
		switch {
		case grew:
			if a.size > b.size {
				cs = append(cs, change{path: p, appended: true, off: b.size, data: data[b.size:]})
			}
		case appendOnly:
			shrunk := had && a.inode == b.inode && a.size < b.size
			cs = append(cs, change{path: p, appended: true, rewrite: true, data: data, shrunk: shrunk})
		default:
			cs = append(cs, change{path: p, data: data})
		}
	}
	return cs, journal, journalRewritten, nil
}

// queueUpload queues a call's changes as version v of the workspace,
// which the call found at version seen, and returns the journal's last seq
// (0: no new event). The journal's new events follow its first keep
// events (keep < 0: all the events the store holds), whose later rows go.
// With text, the bytes that are text go as text (see bytea).
func queueUpload(b *pgx.Batch, name string, seen, v int64, cs []change, journal []byte, keep int64, text bool) int64 {
	deletes := keep >= 0
	for _, c := range cs {
		deletes = deletes || c.cut
	}
	if deletes {
		// A primary key refuses a second commit of an event, not a cut:
		// the workspace must still be at the version the call found (its
		// row lock makes it so; this fails the commit if it ever is not).
		b.Queue(`SELECT 1 / count(*)::int FROM ucs_workspaces WHERE name = $1 AND version = $2`, name, seen)
	}
	if keep >= 0 {
		b.Queue(`DELETE FROM ucs_journal WHERE workspace = $1 AND seq > $2`, name, keep)
	}
	var last int64
	for len(journal) > 0 {
		i := bytes.IndexByte(journal, '\n')
		line := journal[:i+1]
		journal = journal[i+1:]
		seq := gjson.GetBytes(line, "seq").Int()
		// The primary key (workspace, seq) is the compare-and-swap: a
		// second commit of the same sequence number fails here.
		expr, arg := bytea(text, 4, line)
		b.Queue(`INSERT INTO ucs_journal (workspace, seq, hash, line, version) VALUES ($1, $2, $3, `+expr+`, $5)`,
			name, seq, gjson.GetBytes(line, "hash").String(), arg, v)
		last = seq
	}
	for _, c := range cs {
		switch {
		case c.removed:
			b.Queue(`DELETE FROM ucs_chunks WHERE workspace = $1 AND path = $2`, name, c.path)
			b.Queue(`INSERT INTO ucs_blobs (workspace, path, data, version) VALUES ($1, $2, NULL, $3)
				ON CONFLICT (workspace, path) DO UPDATE SET data = NULL, version = $3`, name, c.path, v)
		case c.cut:
			// The chunks past the cut go; the one it falls in (or the one
			// ending at it) is cut to it and takes the new version, so that
			// a mirror pulling this version cuts its file there too.
			b.Queue(`DELETE FROM ucs_chunks WHERE workspace = $1 AND path = $2 AND off >= $3`, name, c.path, c.off)
			b.Queue(`UPDATE ucs_chunks SET data = substring(data FROM 1 FOR ($3 - off)::int), version = $4
				WHERE workspace = $1 AND path = $2 AND off < $3 AND off + length(data) >= $3`, name, c.path, c.off, v)
		case c.appended && len(c.data) == 0:
			// An empty append-only file: a blob, which the first append
			// replaces.
			b.Queue(`DELETE FROM ucs_chunks WHERE workspace = $1 AND path = $2`, name, c.path)
			b.Queue(`INSERT INTO ucs_blobs (workspace, path, data, version) VALUES ($1, $2, ''::bytea, $3)
				ON CONFLICT (workspace, path) DO UPDATE SET data = ''::bytea, version = $3`, name, c.path, v)
		case c.appended:
			if c.rewrite {
				b.Queue(`DELETE FROM ucs_chunks WHERE workspace = $1 AND path = $2`, name, c.path)
			}
			if c.rewrite || c.off == 0 {
				b.Queue(`DELETE FROM ucs_blobs WHERE workspace = $1 AND path = $2`, name, c.path)
			}
			expr, arg := bytea(text, 4, c.data)
			b.Queue(`INSERT INTO ucs_chunks (workspace, path, off, data, version) VALUES ($1, $2, $3, `+expr+`, $5)`,
				name, c.path, c.off, arg, v)
		default:
			expr, arg := bytea(text, 3, c.data)
			b.Queue(`INSERT INTO ucs_blobs (workspace, path, data, version) VALUES ($1, $2, `+expr+`, $4)
				ON CONFLICT (workspace, path) DO UPDATE SET data = EXCLUDED.data, version = $4`, name, c.path, arg, v)
		}
	}
	return last
}

// bytea is the SQL expression of parameter $n holding data, a bytea
// column's value, and the parameter. Without a statement's description (no
// round trip to ask for one: pgx.QueryExecModeExec) a parameter goes as
// text, and bytes as text are hex, twice their length, encoded by the
// client and decoded by the server. What ucs stores is nearly all UTF-8
// text (JSON, JSON lines, Markdown), so where the server's encoding is
// UTF-8 (text) such bytes go as they are, as text converted to bytea by the
// server; anything else (a NUL, bytes that are not UTF-8) as hex.
func bytea(text bool, n int, data []byte) (string, any) {
	if text && utf8.Valid(data) && bytes.IndexByte(data, 0) < 0 {
		return "convert_to($" + strconv.Itoa(n) + "::text, 'UTF8')", string(data)
	}
	return "$" + strconv.Itoa(n), data
}

// textOK reports whether the connection's server stores text as UTF-8:
// the bytes of a UTF-8 text parameter then reach a bytea unchanged.
func textOK(c *pgconn.PgConn) bool { return c.ParameterStatus("server_encoding") == "UTF8" }

// upload writes a call's changes as version v of the workspace, found at
// version seen, in the caller's transaction, and returns the journal's
// last seq.
func upload(ctx context.Context, q pgx.Tx, name string, seen, v int64, cs []change, journal []byte, keep int64) (int64, error) {
	b := &pgx.Batch{}
	seq := queueUpload(b, name, seen, v, cs, journal, keep, textOK(q.Conn().PgConn()))
	return seq, q.SendBatch(ctx, b).Close()
}
