package workspace

import (
	"bytes"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// The record index makes a lookup in the model log cost the same however
// many records it holds. In ucs/state/records-v1/, segments named
// START-END.rec (recseg.go) each hold, sorted by key, the newest value of
// every key set in the log's lines START to END, and name the log's chain
// hashes before and after those lines. A lookup takes the chain of
// segments that starts at line 0 and links hash to hash, reads the
// committed lines after it (the tail) from the log, and requires their
// hashes to lead to the state's file sum: segments that do not are not
// used, so the index is never trusted beyond what it proves. It then looks
// in the tail, newest line first, and in the segments, newest first, each
// by binary search; a segment found damaged there is dropped with the
// segments after it, whose lines are read from the log instead.
//
// It is derived and never hashed. A transaction holding the workspace
// exclusively keeps the tail short: when it holds more than recTailLines
// lines or recTailBytes bytes, they become a segment, and the last two
// segments are merged while the last covers at least a quarter of the
// lines of the one before (a merge into the segment from line 0 drops the
// deleted keys); segments the chain no longer uses are removed. Deleting
// the directory changes no answer.

// RelRecordsDir names the record index with its format.
const RelRecordsDir = "ucs/state/records-v1"

// The tail a writing transaction leaves outside the segments: each lookup
// reads it, so it stays small.
const (
	recTailLines = 8
	recTailBytes = 64 << 10
)

// recordView is what a transaction reads the model log's records from: the
// chain of segments, oldest first, and the tail's newest value per key.
type recordView struct {
	segs      []*recSegment
	tail      map[string][]byte
	tailMeta  recordMeta // what the tail covers (End and after once read)
	tailLines int
	tailBytes int64
}

func (v *recordView) close() {
	for _, s := range v.segs {
		s.close()
	}
	v.segs = nil
}

// Record returns the newest committed value of a key of the model log
// (compact JSON, in a copy of its own), or nil when the key was never set
// or was deleted. What SetRecords queued is not seen before the commit. It
// reads the index's few records it needs and the log's newest lines, never
// the whole log; a damaged index is read around, never an error.
func (tx *Tx) Record(key string) ([]byte, error) {
	if tx.Meta.Files[RelModelLog].Lines == 0 || tx.ref != nil {
		return nil, nil
	}
	for {
		v, err := tx.recordView()
		if err != nil {
			return nil, err
		}
		if val, ok := v.tail[key]; ok {
			return ownValue(val), nil
		}
		damaged := -1
		for i := len(v.segs) - 1; i >= 0; i-- {
			val, ok, err := v.segs[i].lookup(key)
			if err != nil {
				damaged = i
				break
			}
			if ok {
				return ownValue(val), nil
			}
		}
		if damaged < 0 {
			return nil, nil
		}
		if err := tx.dropSegments(damaged); err != nil {
			return nil, err
		}
	}
}

// ownValue copies a value out of a segment's memory; null is nil.
func ownValue(v []byte) []byte {
	if bytes.Equal(v, jsonNull) {
		return nil
	}
	return bytes.Clone(v)
}

// SetRecords queues records for the model log: Commit appends them, with
// everything else the transaction queued, as one line (none when nothing
// was set). A nil or JSON null value deletes its key; of several values
// set for a key in one transaction, the last is kept. A key that is not
// UTF-8 or a value that is not JSON is an error, and nothing of recs is
// queued.
func (tx *Tx) SetRecords(recs []Record) error {
	vals := make([][]byte, len(recs))
	for i, r := range recs {
		v, err := normalizeValue(r.Key, r.Value)
		if err != nil {
			return err
		}
		vals[i] = v
	}
	if tx.recordsSet == nil {
		tx.recordsSet = map[string][]byte{}
	}
	for i, r := range recs {
		tx.recordsSet[r.Key] = vals[i]
	}
	return nil
}

// recordLine is the model log's line for what SetRecords queued, with its
// newline; nil when nothing was.
func (tx *Tx) recordLine(seq int64) []byte {
	if len(tx.recordsSet) == 0 {
		return nil
	}
	recs := make([]Record, 0, len(tx.recordsSet))
	for k, v := range tx.recordsSet {
		recs = append(recs, Record{k, v})
	}
	slices.SortFunc(recs, func(a, b Record) int { return strings.Compare(a.Key, b.Key) })
	return append(appendModelLine(nil, seq, recs), '\n')
}

// Records calls fn for every key of the model log that has a value, in key
// order, with its newest committed value, until fn returns false. It reads
// the whole index and checks every record of it: it is for export and
// tests, not for a call's path.
func (tx *Tx) Records(fn func(key string, value []byte) bool) error {
	if tx.Meta.Files[RelModelLog].Lines == 0 || tx.ref != nil {
		return nil
	}
	v, err := tx.recordView()
	if err != nil {
		return err
	}
	for i := 0; i < len(v.segs); i++ {
		if v.segs[i].verify() != nil {
			if err := tx.dropSegments(i); err != nil {
				return err
			}
			v, i = tx.records, -1 // check the segments that remain again: few
		}
	}
	// A merge of sorted sources, newest first: the tail, then the
	// segments from the last.
	type cursor struct {
		keys []string    // the tail's
		seg  *recSegment // or a segment's
		at   int         // the next record
		key  string      // the current key, when !done
		done bool
	}
	advance := func(c *cursor) error {
		if c.seg == nil {
			if c.done = c.at >= len(c.keys); !c.done {
				c.key = c.keys[c.at]
			}
			return nil
		}
		if c.done = c.at >= c.seg.n; c.done {
			return nil
		}
		k, _, err := c.seg.record(c.at, false)
		c.key = string(k)
		return err
	}
	tailKeys := make([]string, 0, len(v.tail))
	for k := range v.tail {
		tailKeys = append(tailKeys, k)
	}
	slices.Sort(tailKeys)
	cs := []*cursor{{keys: tailKeys}}
	for i := len(v.segs) - 1; i >= 0; i-- {
		cs = append(cs, &cursor{seg: v.segs[i]})
	}
	for _, c := range cs {
		if err := advance(c); err != nil {
			return fault.Internal(err, "read %s", RelRecordsDir)
		}
	}
	for {
		var win *cursor
		for _, c := range cs {
			if !c.done && (win == nil || c.key < win.key) {
				win = c
			}
		}
		if win == nil {
			return nil
		}
		key := win.key
		var val []byte
		if win.seg == nil {
			val = v.tail[key]
		} else {
			_, raw, err := win.seg.record(win.at, true)
			if err != nil {
				return fault.Internal(err, "read %s", RelRecordsDir)
			}
			val = raw
		}
		if !bytes.Equal(val, jsonNull) && !fn(key, bytes.Clone(val)) {
			return nil
		}
		for _, c := range cs {
			if !c.done && c.key == key {
				c.at++
				if err := advance(c); err != nil {
					return fault.Internal(err, "read %s", RelRecordsDir)
				}
			}
		}
	}
}
