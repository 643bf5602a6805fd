package workspace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The index (docs/storage.md) is derived from the knowledge files so that
// a call reads only what it needs however much the agent knows. In
// ucs/state/index-v1/:
//
//	methodology.jsonl, judgment_nodes.jsonl, dead_ends.jsonl
//	    one line per entry of the data file of the same name, tab-separated:
//	    where the entry is ("OFFSET LENGTH"), its features (Options.Features:
//	    knowledge.AppendFeatures), its line number, and the start of the
//	    data file's chain hash after it
//	methodology-cap-I.txt
//	    the methodology entries that name the manifest's I-th capability,
//	    a line "OFFSET LENGTH DATE" each
//
// It is appended in the same commit as the entries, so the journal rolls
// it back with them. It is never hashed into the state: its last line's
// line number and hash say which state of the data file it describes, and
// an index that does not describe the committed state is stale. A stale or
// damaged index is not used (searches decode the data files), and the next
// call that can write rebuilds it whole, beside the old one, and swaps it
// in.

// RelIndexDir names the index with its format: a new format is a new
// directory, and a rebuild removes the old ones.
const RelIndexDir = "ucs/state/index-v1"

// indexedFiles are the data files the index describes.
var indexedFiles = []string{RelMethodology, RelJudgment, RelDeadEnds}

func indexRel(rel string) string { return RelIndexDir + "/" + rel[len(RelStateDir)+1:] }

func capRel(i int) string { return RelIndexDir + "/methodology-cap-" + strconv.Itoa(i) + ".txt" }

// hashTag is the part of a chain hash an index line keeps.
func hashTag(h string) string { return h[:min(16, len(h))] }

// indexState caches whether each indexed file's index is current.
type indexState map[string]bool

// IndexCurrent reports whether rel's index describes the committed file,
// so that searches use it. A reference workspace has no index.
func (tx *Tx) IndexCurrent(rel string) bool { return tx.indexed(rel) }

// indexed reports whether rel's index describes the committed file.
func (tx *Tx) indexed(rel string) bool {
	if tx.ref != nil || tx.NoIndex || !tx.l.indexes() {
		return false
	}
	if ok, known := tx.index[rel]; known {
		return ok
	}
	ok := indexCurrent(tx.l, rel, tx.Meta.Files[rel])
	if tx.index == nil {
		tx.index = indexState{}
	}
	tx.index[rel] = ok
	return ok
}

// indexDamaged marks rel's index as not to be used, and to be rebuilt
// after the commit of a call that can write.
func (tx *Tx) indexDamaged(rel string) {
	if tx.index == nil {
		tx.index = indexState{}
	}
	tx.index[rel] = false
	tx.rebuildAfter = tx.rebuildAfter || tx.exclusive
}

// indexCurrent reports whether the index of rel describes the data file
// summed up by want: its last line names want's line count and hash.
func indexCurrent(l *Workspace, rel string, want FileSum) bool {
	lines, err := readTail(l, indexRel(rel), 1, 0)
	if err != nil {
		return false
	}
	if len(lines) == 0 {
		return want.Lines == 0
	}
	fields := strings.Split(string(lines[0]), "\t")
	if len(fields) != 3+l.opts.Features.Fields {
		return false
	}
	n, err := strconv.Atoi(fields[len(fields)-2])
	return err == nil && want.Lines > 0 && n == want.Lines && fields[len(fields)-1] == hashTag(want.Hash)
}

// RefreshIndex makes the index current for a search of rel, if this
// transaction may: one holding the workspace exclusively rebuilds a stale
// index whole, now, in the middle of the call, before it searches. This is
// the one write outside Commit, and it is safe there: the index is
// derived, never hashed, built beside the old one and swapped in with two
// renames, so a crash leaves at worst no current index, rebuilt later. A
// shared transaction never writes: its searches read the data files. A
// failed rebuild is not retried in the transaction; searches read the
// data files. It does nothing when rel is decoded already (as a reference
// workspace's data files are).
func (tx *Tx) RefreshIndex(rel string) {
	if tx.decodedFile(rel) || tx.indexed(rel) {
		return
	}
	if tx.NoIndex || !tx.l.indexes() || !tx.exclusive || tx.indexFailed != nil {
		return
	}
	if err := tx.rebuildIndex(); err != nil {
		tx.indexFailed = err
	}
}

// indexLine is the index line of entry v, the line-th of its file, at off
// with length n, after which the file's chain hash is hash.
func indexLine(f Features, v pyjson.Value, off int64, n, line int, hash string) []byte {
	b := strconv.AppendInt(nil, off, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(n), 10)
	b = f.Append(append(b, '\t'), v)
	b = strconv.AppendInt(append(b, '\t'), int64(line), 10)
	b = append(append(b, '\t'), hashTag(hash)...)
	return append(b, '\n')
}

// capLine is a methodology entry's line in the list of a capability.
func capLine(v pyjson.Value, off int64, n int) []byte {
	b := strconv.AppendInt(nil, off, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, ' ')
	b = pyjson.AppendString(b, v.StrOf("date"))
	return append(b, '\n')
}

// capIndexes lists the manifest positions of the distinct capabilities an
// entry names.
func capIndexes(m Manifest, v pyjson.Value) []int {
	var out []int
	caps, _ := v.Get("capabilities")
	for _, c := range caps.Items() {
		if c.Kind() != pyjson.String {
			continue
		}
		if i := m.Index(c.Str()); i >= 0 && !containsInt(out, i) {
			out = append(out, i)
		}
	}
	return out
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// indexPending queues the index lines of the entries this commit appends,
// when the index is current; otherwise the index is left stale and
// rebuilt after the commit.
func (tx *Tx) indexPending() error {
	if tx.NoIndex || !tx.l.indexes() {
		return nil
	}
	var extra []pendingAppend
	for _, rel := range indexedFiles {
		added := tx.added[rel]
		if len(added) == 0 {
			continue
		}
		lines := 0
		for _, p := range tx.pending {
			if p.rel == rel {
				lines++
			}
		}
		if lines != len(added) || !tx.indexed(rel) {
			tx.rebuildAfter = true
			continue
		}
		off, err := appendOffset(tx.l, rel)
		if err != nil {
			return err
		}
		off = max(off, 0)
		sum := tx.Meta.Files[rel]
		k := 0
		for _, p := range tx.pending {
			if p.rel != rel {
				continue
			}
			v := added[k]
			k++
			sum = sum.add(p.data)
			n := len(p.data) - 1
			extra = append(extra, pendingAppend{indexRel(rel), indexLine(tx.l.opts.Features, v, off, n, sum.Lines, sum.Hash)})
			if rel == RelMethodology {
				for _, i := range capIndexes(tx.manifest, v) {
					extra = append(extra, pendingAppend{capRel(i), capLine(v, off, n)})
				}
			}
			off += int64(len(p.data))
		}
	}
	tx.pending = append(tx.pending, extra...)
	return nil
}

// buildIndex builds the whole index from the data files: each file's
// name under the index directory and its content. A data file that does
// not hold what the state summarizes (want) gives an error.
func buildIndex(l *Workspace, m Manifest, want map[string]FileSum) (map[string][]byte, error) {
	if l.opts.Manifests.Parse == nil {
		return nil, errNoManifests
	}
	if l.opts.Features.Append == nil {
		return nil, errNoFeatures
	}
	files := map[string]*bytes.Buffer{}
	out := func(rel string) *bytes.Buffer {
		name := path.Base(rel)
		if files[name] == nil {
			files[name] = &bytes.Buffer{}
		}
		return files[name]
	}
	for _, rel := range indexedFiles {
		var sum FileSum
		var perr error
		err := scanAllLines(l, rel, func(line []byte, off int64) {
			sum = sum.add(line)
			text := line[:len(line)-1]
			if perr != nil || len(bytes.TrimSpace(text)) == 0 {
				return
			}
			v, err := pyjson.Parse(text)
			if err != nil {
				perr = fault.Corrupt(err, relLine(rel, sum.Lines))
				return
			}
			out(indexRel(rel)).Write(indexLine(l.opts.Features, v, off, len(text), sum.Lines, sum.Hash))
			if rel == RelMethodology {
				for _, i := range capIndexes(m, v) {
					out(capRel(i)).Write(capLine(v, off, len(text)))
				}
			}
		})
		if err != nil {
			return nil, err
		}
		if perr != nil {
			return nil, perr
		}
		if sum != want[rel] {
			return nil, fault.Corrupt(errors.New("it does not hold what was committed"), rel)
		}
	}
	built := make(map[string][]byte, len(files))
	for name, buf := range files {
		built[name] = buf.Bytes()
	}
	return built, nil
}

// rebuildIndex builds the whole index in a new directory and swaps it in.
// It runs under the exclusive lock. A data file that does not match the
// committed state leaves the index stale.
func (tx *Tx) rebuildIndex() error {
	files, err := buildIndex(tx.l, tx.manifest, tx.Meta.Files)
	if err != nil {
		return err
	}
	dir := tx.l.path(RelIndexDir)
	tmp, old := dir+".new", dir+".old"
	os.RemoveAll(tmp)
	os.RemoveAll(old)
	if err := os.MkdirAll(tmp, DirPerm); err != nil {
		return fault.Internal(err, "create %s", RelIndexDir)
	}
	defer os.RemoveAll(tmp)
	for name, data := range files {
		if err := writeSynced(filepath.Join(tmp, name), data); err != nil {
			return err
		}
	}
	if err := syncDir(tmp); err != nil {
		return err
	}
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fault.Internal(err, "move %s aside", RelIndexDir)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fault.Internal(err, "install %s", RelIndexDir)
	}
	if err := syncDir(tx.l.path(RelStateDir)); err != nil {
		return err
	}
	os.RemoveAll(old)
	tx.index, tx.postings = nil, nil
	return nil
}

// checkIndex compares a current index with what the data files give; it
// returns the names of the files that differ (none for a stale index,
// which is not used).
func checkIndex(l *Workspace, m Manifest, want map[string]FileSum) []string {
	for _, rel := range indexedFiles {
		if !indexCurrent(l, rel, want[rel]) {
			return nil
		}
	}
	built, err := buildIndex(l, m, want)
	if err != nil {
		return nil // the data files' own problems are reported
	}
	var bad []string
	entries, _ := os.ReadDir(l.path(RelIndexDir))
	for _, e := range entries {
		if _, ok := built[e.Name()]; !ok {
			bad = append(bad, RelIndexDir+"/"+e.Name())
		}
	}
	for name, data := range built {
		got, err := readFile(l.path(RelIndexDir + "/" + name))
		if err != nil || !bytes.Equal(got, data) {
			bad = append(bad, RelIndexDir+"/"+name)
		}
	}
	slices.Sort(bad)
	return bad
}

func writeSynced(name string, data []byte) error {
	f, err := openFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, FilePerm)
	if err != nil {
		return fault.Internal(err, "create %s", name)
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return fault.Internal(err, "write %s", name)
	}
	if err := f.Sync(); err != nil {
		return fault.Internal(err, "sync %s", name)
	}
	return nil
}

// scanAllLines calls fn for every complete line of a file, blank ones
// included, with its newline and offset.
func scanAllLines(l *Workspace, rel string, fn func(line []byte, off int64)) error {
	f, err := openRead(l.path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fault.Internal(err, "open %s", rel)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var off int64
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			buf := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = r.ReadSlice('\n')
				buf = append(buf, line...)
			}
			line = buf
		}
		if err != nil {
			return nil // EOF: what is left is a torn line
		}
		fn(line, off)
		off += int64(len(line))
	}
}

// capPosting is a methodology entry naming a capability.
type capPosting struct {
	off  int64
	n    int
	date string
}

// readCapPostings reads the list of the manifest's i-th capability,
// once per call.
func (tx *Tx) readCapPostings(i int) ([]capPosting, error) {
	if ps, ok := tx.postings[i]; ok {
		return ps, nil
	}
	raw, err := readFile(tx.l.path(capRel(i)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fault.Internal(err, "read %s", capRel(i))
	}
	data := string(raw)
	out := make([]capPosting, 0, strings.Count(data, "\n"))
	for {
		line, rest, ok := strings.Cut(data, "\n")
		if !ok {
			break // a torn line was never committed
		}
		data = rest
		a, rest, _ := strings.Cut(line, " ")
		b, date, _ := strings.Cut(rest, " ")
		off, err1 := strconv.ParseInt(a, 10, 64)
		n, err2 := strconv.Atoi(b)
		d, err3 := decodeJSONString(date)
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fault.Corrupt(fmt.Errorf("bad line %q", line), capRel(i))
		}
		if len(out) > 0 && off <= out[len(out)-1].off {
			return nil, fault.Corrupt(fmt.Errorf("line %q is out of file order", line), capRel(i))
		}
		out = append(out, capPosting{off, n, d})
	}
	if tx.postings == nil {
		tx.postings = map[int][]capPosting{}
	}
	tx.postings[i] = out
	return out, nil
}

// decodeJSONString decodes a JSON string literal.
func decodeJSONString(s string) (string, error) {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' && !strings.ContainsAny(s[1:len(s)-1], "\\\"") {
		return s[1 : len(s)-1], nil
	}
	v, err := pyjson.Parse([]byte(s))
	if err == nil && v.Kind() != pyjson.String {
		err = errors.New("not a string")
	}
	return v.Str(), err
}
