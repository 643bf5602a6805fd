package search

import (
	"bytes"
	"runtime"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
)

// Candidates returns the entries of a data file (with what the
// transaction added) that a search returning max hits could return, in
// file order: the index's features of every entry are scored by p (as
// entries of kind k), and only the best max entries, with any tied with
// the last of them, are read and decoded. With window > 0 only the last
// window entries are searched. Without a current index, every entry is a
// candidate. Candidates never writes: call Tx.RefreshIndex first to have
// a stale index rebuilt.
func Candidates(tx *workspace.Tx, rel string, window, max int, p *knowledge.Prepared, k knowledge.Kind) ([]pyjson.Value, error) {
	fallback := func() ([]pyjson.Value, error) {
		if window > 0 {
			return tx.Tail(rel, window)
		}
		return tx.List(rel)
	}
	added := tx.Added(rel)
	n := -1
	if window > 0 {
		added = added[len(added)-min(window, len(added)):]
		n = window - len(added)
	}
	lines, ok, err := tx.IndexLines(rel, n)
	if err != nil {
		return nil, err
	}
	if !ok {
		return fallback()
	}
	hits, ok := scoreLines(lines, p, k)
	if !ok {
		tx.IndexDamaged(rel)
		return fallback()
	}
	for i, v := range added {
		if score, ok := p.ScoreEntry(k, v); ok {
			hits = append(hits, knowledge.RawHit{Index: len(lines) + i, Score: score})
		}
	}
	out := []pyjson.Value{}
	r := tx.EntryReader(rel)
	defer r.Close()
	for _, i := range knowledge.TopRaw(hits, max) {
		if i >= len(lines) {
			out = append(out, added[i-len(lines)])
			continue
		}
		v, err := r.ReadIndexed(lines[i])
		if workspace.IsBadLocation(err) {
			// The index is derived: a damaged one is not used (and is
			// rebuilt after the commit of a call that can write).
			tx.IndexDamaged(rel)
			return fallback()
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// parallelScoring is the number of index lines from which scoreLines
// splits them between two goroutines. Scoring is most of a consult at
// scale (10,000 methodology entries) and needs nothing but the lines; below
// this, starting a goroutine costs more than it saves.
const parallelScoring = 2048

// scoreLines scores index lines (location, tab, features) with p as
// entries of kind k and returns the hits in line order, exactly as scoring
// them one after another does; false when a line has no features (a
// damaged index). Many lines are scored in two halves at once, the second
// with a clone of p.
func scoreLines(lines [][]byte, p *knowledge.Prepared, k knowledge.Kind) ([]knowledge.RawHit, bool) {
	score := func(p *knowledge.Prepared, lines [][]byte, first int) ([]knowledge.RawHit, bool) {
		var hits []knowledge.RawHit
		for i, line := range lines {
			tab := bytes.IndexByte(line, '\t')
			if tab < 0 {
				return nil, false
			}
			if score, ok := p.Score(k, line[tab+1:]); ok {
				hits = append(hits, knowledge.RawHit{Index: first + i, Score: score})
			}
		}
		return hits, true
	}
	if len(lines) < parallelScoring || runtime.GOMAXPROCS(0) < 2 {
		return score(p, lines, 0)
	}
	half := len(lines) / 2
	var second []knowledge.RawHit
	var secondOK bool
	done := make(chan struct{})
	clone := p.Clone()
	go func() {
		defer close(done)
		second, secondOK = score(clone, lines[half:], half)
	}()
	first, firstOK := score(p, lines[:half], 0)
	<-done
	if !firstOK || !secondOK {
		return nil, false
	}
	return append(first, second...), true
}
