package search

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/recall"
)

// The term index holds the entries of the knowledge files,
// whole, as BM25 segments of package recall, so that a search reads the
// postings of its terms and not every entry, however much the agent knows.
// In ucs/state/terms-v1/, for each data file, segments named
// NAME-START-END.seg cover its lines START to END (from 0, END excluded):
// each entry of those lines is a document whose Ref says where the entry
// is in the data file. A segment's meta says what it covers:
//
//	START END START_OFFSET END_OFFSET HASH_BEFORE HASH_AFTER
//	RULE
//
// (the data file's chain hashes, as in the state's file sums, before its
// first line and after its last) and RULE, the caller's name for what of
// an entry it indexes and how (TermRule.Key).
//
// The segments a search uses are the chain of them that starts at line 0
// and links hash to hash; the lines after the chain, up to what the state
// committed, are read from the data file and searched from memory beside
// them, and their hashes must lead from the chain's last to the committed
// file sum, or no segment is used. So the index is never trusted beyond
// what it proves, and a search's hits and scores are those of one index of
// every entry (recall.SearchSegments), however the lines are split.
//
// It is derived and never hashed into the state. A search under the
// exclusive lock keeps it up to date: when more than termTailMax committed
// lines are outside the chain, it writes them as a segment, and merges the
// last two segments while the last is at least a quarter of the one before
// (sizes fall by four from the first, so a search opens a few segments and
// an entry is indexed again a few times in all).

// termTailMax is how many committed lines a search reads outside the
// segments before it writes them as one.
const termTailMax = 64

// A TermRule says what a term index holds of an entry: its weighted fields,
// analysed by Analyzer. Key names the rule (its version, the synonyms):
// segments built under another key are not used.
type TermRule struct {
	Key      string
	Analyzer *recall.Analyzer
	Fields   func(v pyjson.Value) []recall.Field
}

// A TermHit is an entry a term search found.
type TermHit struct {
	Entry   pyjson.Value
	Line    int // the entry's line in its data file, from 0
	Score   float64
	Matched []recall.TermScore
}

// termSegment is one segment of a data file: a file of the chain, or the
// committed lines after it, built in memory (f nil, data its bytes).
type termSegment struct {
	name                string
	start, end          int
	startOff, endOff    int64
	hashBefore, hashEnd string
	seg                 *recall.Segment
	f                   *os.File
	data                []byte
}

// Terms ranks the entries of a data file (with those the transaction
// added) for q, with the rule's BM25 over their fields, and returns at
// most q.Max of them (all for 0), best first, ties in file order. Under
// the exclusive lock it may write the term index (see above).
func Terms(tx *workspace.Tx, rel string, q recall.Query, rule TermRule) ([]TermHit, error) {
	base := strings.TrimSuffix(path.Base(rel), ".jsonl")
	committed := tx.Meta.Files[rel]
	var segs []*termSegment
	defer func() { closeSegments(segs) }()
	var added []pyjson.Value
	firstAdded := committed.Lines
	if !tx.IndexUsable(rel) {
		all, err := tx.List(rel)
		if err != nil {
			return nil, err
		}
		added, firstAdded = all, 0
	} else {
		segs = termChain(tx, base, rule.Key, committed.Lines)
		tail, err := termTail(tx, rel, base, rule, segs, committed)
		if errors.Is(err, errChainBroken) {
			closeSegments(segs)
			segs = nil
			tail, err = termTail(tx, rel, base, rule, nil, committed)
		}
		if err != nil {
			return nil, err
		}
		if tail != nil && tx.Exclusive() && tail.end-tail.start > termTailMax {
			// Best effort: the index is derived, and a search that
			// cannot keep it searches from memory.
			if grown, err := growTerms(tx, rel, base, rule, segs, tail); err == nil {
				segs, tail = grown, nil
			}
		}
		if tail != nil {
			segs = append(segs, tail)
		}
		added = tx.Added(rel)
	}
	b := recall.NewSegmentBuilder(rule.Analyzer)
	for i, v := range added {
		b.Add(rule.Fields(v), [2]uint64{uint64(i)})
	}
	mem := b.Bytes(nil)
	memSeg, err := recall.OpenSegment(bytes.NewReader(mem), int64(len(mem)))
	if err != nil {
		return nil, fault.Internal(err, "index %s", rel)
	}
	list := make([]*recall.Segment, 0, len(segs)+1)
	for _, s := range segs {
		list = append(list, s.seg)
	}
	hits, err := recall.SearchSegments(q, rule.Analyzer, append(list, memSeg))
	if err != nil {
		return searchWithoutIndex(tx, rel, q, rule)
	}
	out := make([]TermHit, 0, len(hits))
	r := tx.EntryReader(rel)
	defer r.Close()
	for _, h := range hits {
		th := TermHit{Score: h.Score, Matched: h.Matched}
		if h.Segment == len(segs) {
			th.Entry, th.Line = added[h.Doc], firstAdded+h.Doc
		} else {
			s := segs[h.Segment]
			ref, err := s.seg.Ref(h.Doc)
			off, n, line := unpackRef(ref)
			if err != nil || n == 0 || off < s.startOff || off+int64(n) >= s.endOff || line >= s.end-s.start {
				return searchWithoutIndex(tx, rel, q, rule)
			}
			v, err := r.Read(off, n)
			if err != nil {
				return nil, err
			}
			th.Entry, th.Line = v, s.start+line
		}
		out = append(out, th)
	}
	return out, nil
}

// searchWithoutIndex searches every entry from memory: a segment that
// opened turned out damaged.
func searchWithoutIndex(tx *workspace.Tx, rel string, q recall.Query, rule TermRule) ([]TermHit, error) {
	tx.NoIndex = true
	defer func() { tx.NoIndex = false }()
	return Terms(tx, rel, q, rule)
}

// errChainBroken: the lines after the chain do not lead to the committed
// file sum.
var errChainBroken = errors.New("the term index does not describe the data file")

func closeSegments(chain []*termSegment) {
	for _, s := range chain {
		if s.f != nil {
			s.f.Close()
			s.f = nil
		}
	}
}

// termChain opens the segments of a data file that link from line 0 (at
// each step the longest that starts where the chain ends, with its hash),
// none past the committed lines.
func termChain(tx *workspace.Tx, base, key string, lines int) []*termSegment {
	entries, err := tx.ReadDerivedDir(workspace.RelTermsDir)
	if err != nil {
		return nil
	}
	var cands []*termSegment
	for _, e := range entries {
		start, end, ok := segmentName(e.Name(), base)
		if ok && end <= lines {
			cands = append(cands, &termSegment{name: e.Name(), start: start, end: end})
		}
	}
	// Longest first, so that the first that opens is taken.
	slices.SortFunc(cands, func(a, b *termSegment) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var chain []*termSegment
	at, hash := 0, ""
	var off int64
	for _, c := range cands {
		if c.start != at {
			continue
		}
		if !openSegment(tx, c, key) || c.hashBefore != hash || c.startOff != off {
			continue
		}
		chain = append(chain, c)
		at, hash, off = c.end, c.hashEnd, c.endOff
	}
	return chain
}

// segmentName reads NAME-START-END.seg.
func segmentName(name, base string) (start, end int, ok bool) {
	rest, ok := strings.CutPrefix(name, base+"-")
	if !ok {
		return 0, 0, false
	}
	rest, ok = strings.CutSuffix(rest, ".seg")
	a, b, ok2 := strings.Cut(rest, "-")
	start, err1 := strconv.Atoi(a)
	end, err2 := strconv.Atoi(b)
	if !ok || !ok2 || err1 != nil || err2 != nil || start < 0 || end <= start {
		return 0, 0, false
	}
	return start, end, true
}

// openSegment opens a segment file and reads its meta; false (the file
// closed) when it does not open or was built under another rule or for
// other lines.
func openSegment(tx *workspace.Tx, s *termSegment, key string) bool {
	f, err := tx.OpenDerived(workspace.RelTermsDir + "/" + s.name)
	if err != nil {
		return false
	}
	st, err := f.Stat()
	if err == nil {
		s.seg, err = recall.OpenSegment(f, st.Size())
	}
	if err != nil {
		f.Close()
		return false
	}
	head, rule, _ := strings.Cut(string(s.seg.Meta()), "\n")
	var start, end int
	_, err = fmt.Sscanf(head, "%d %d %d %d %s %s", &start, &end, &s.startOff, &s.endOff, &s.hashBefore, &s.hashEnd)
	if err != nil || rule != key || start != s.start || end != s.end || s.startOff < 0 || s.endOff < s.startOff {
		f.Close()
		return false
	}
	if s.hashBefore == "-" {
		s.hashBefore = ""
	}
	s.f = f
	return true
}

// packRef is a segment document's Ref: where its entry is in the data
// file (offset, length) and its line in the segment (a blank line is no
// document, so that the numbers of documents, and the scores, are the same
// however the lines are split).
func packRef(off int64, n, line int) [2]uint64 {
	return [2]uint64{uint64(off), uint64(line)<<32 | uint64(uint32(n))}
}

func unpackRef(ref [2]uint64) (off int64, n, line int) {
	return int64(ref[0]), int(uint32(ref[1])), int(ref[1] >> 32)
}

// segmentMeta is a segment's meta (see the top of this file).
func segmentMeta(start, end int, startOff, endOff int64, hashBefore, hashEnd, key string) []byte {
	if hashBefore == "" {
		hashBefore = "-"
	}
	return fmt.Appendf(nil, "%d %d %d %d %s %s\n%s", start, end, startOff, endOff, hashBefore, hashEnd, key)
}

// termTail builds, in memory, the segment of the committed lines after
// the chain (nil when there are none), checking that their hashes lead
// from the chain's to the committed sum (errChainBroken if not).
func termTail(tx *workspace.Tx, rel, base string, rule TermRule, chain []*termSegment, committed workspace.FileSum) (*termSegment, error) {
	at, hash := 0, ""
	var off int64
	if n := len(chain); n > 0 {
		at, hash, off = chain[n-1].end, chain[n-1].hashEnd, chain[n-1].endOff
	}
	if at == committed.Lines {
		if hash != committed.Hash {
			return nil, errChainBroken
		}
		return nil, nil
	}
	t, err := buildSegment(tx, rel, base, rule, at, committed.Lines, off, hash)
	if err != nil {
		return nil, err
	}
	if t.hashEnd != committed.Hash {
		if len(chain) > 0 {
			return nil, errChainBroken
		}
		return nil, fault.Corrupt(errors.New("it does not hold what was committed"), rel)
	}
	return t, nil
}

// buildSegment builds, in memory, the segment of a data file's lines
// start to end, the first at off and after hash: it reads them one at a
// time, keeping their postings only.
func buildSegment(tx *workspace.Tx, rel, base string, rule TermRule, start, end int, off int64, hash string) (*termSegment, error) {
	b := recall.NewSegmentBuilder(rule.Analyzer)
	sum := workspace.FileSum{Lines: start, Hash: hash}
	at := off
	var perr error
	err := tx.ScanLines(rel, off, func(line []byte) bool {
		if sum.Lines >= end {
			return false
		}
		sum = sum.Add(line)
		text := line[:len(line)-1]
		if len(bytes.TrimSpace(text)) > 0 {
			v, err := pyjson.Parse(text)
			if err != nil {
				perr = fault.Corrupt(err, workspace.LineName(rel, sum.Lines))
				return false
			}
			b.Add(rule.Fields(v), packRef(at, len(text), sum.Lines-1-start))
		}
		at += int64(len(line))
		return true
	})
	if err != nil {
		return nil, fault.Internal(err, "read %s", rel)
	}
	if perr != nil {
		return nil, perr
	}
	if sum.Lines != end {
		return nil, errChainBroken
	}
	t := &termSegment{name: fmt.Sprintf("%s-%d-%d.seg", base, start, end), start: start, end: end,
		startOff: off, endOff: at, hashBefore: hash, hashEnd: sum.Hash}
	t.data = b.Bytes(segmentMeta(start, end, off, at, hash, sum.Hash, rule.Key))
	if t.seg, err = recall.OpenSegment(bytes.NewReader(t.data), int64(len(t.data))); err != nil {
		return nil, fault.Internal(err, "index %s", rel)
	}
	return t, nil
}

// growTerms writes the tail's segment, merges the last segments while the
// last is at least a quarter of the one before, and removes the data
// file's segments the new chain does not use.
func growTerms(tx *workspace.Tx, rel, base string, rule TermRule, chain []*termSegment, tail *termSegment) ([]*termSegment, error) {
	if err := tx.WriteDerivedNow(workspace.RelTermsDir+"/"+tail.name, tail.data); err != nil {
		return chain, err
	}
	tail.data = nil
	chain = append(chain, tail)
	for len(chain) >= 2 {
		a, b := chain[len(chain)-2], chain[len(chain)-1]
		if 4*(b.end-b.start) < a.end-a.start {
			break
		}
		m, err := buildSegment(tx, rel, base, rule, a.start, b.end, a.startOff, a.hashBefore)
		if err == nil && m.hashEnd != b.hashEnd {
			err = errChainBroken
		}
		if err == nil {
			err = tx.WriteDerivedNow(workspace.RelTermsDir+"/"+m.name, m.data)
		}
		if err != nil {
			return chain, err
		}
		m.data = nil
		closeSegments(chain[len(chain)-2:])
		chain = append(chain[:len(chain)-2], m)
	}
	keep := map[string]bool{}
	for _, s := range chain {
		keep[s.name] = true
	}
	if dir, err := tx.ReadDerivedDir(workspace.RelTermsDir); err == nil {
		for _, e := range dir {
			if _, _, ok := segmentName(e.Name(), base); ok && !keep[e.Name()] {
				tx.RemoveDerived(workspace.RelTermsDir + "/" + e.Name())
			}
		}
	}
	return chain, nil
}
