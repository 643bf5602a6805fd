package workspace

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// The record index makes a lookup in the model log cost the same however
// many records it holds. In ucs/state/records-v1/, segments named
// START-END.rec (recseg.go) each hold, sorted by key, the newest value of
// every key set or merged in the log's lines START to END, whole (a merge
// applied to the value below it when the segment was written), and name
// the log's chain hashes before and after those lines. A lookup takes the
// chain of segments that starts at line 0 and links hash to hash, reads
// the committed lines after it (the tail) from the log, and requires
// their hashes to lead to the state's file sum: segments that do not are
// not used, so the index is never trusted beyond what it proves. It then looks
// in the tail and, unless the tail sets the key, in the segments, newest
// first, each by binary search, and applies the tail's merges to what it
// found; a segment found damaged there is dropped with the segments after
// it, whose lines are read from the log instead.
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
// chain of segments, oldest first, and what the tail does to each key.
type recordView struct {
	segs      []*recSegment
	tail      map[string]tailRecord
	tailMeta  recordMeta // what the tail covers (End and after once read)
	tailLines int
	tailBytes int64
}

// A tailRecord is what the tail's lines do to a key: its newest set, if
// any, and the merges after it (after the segments' value when there is
// none), in line order.
type tailRecord struct {
	set    bool
	value  []byte // the set's value, when set
	merges [][]byte
}

func (v *recordView) close() {
	for _, s := range v.segs {
		s.close()
	}
	v.segs = nil
}

// Record returns the newest committed value of a key of the model log
// (compact JSON, in a copy of its own), or nil when the key was never set
// or was deleted; the merges after its newest set are applied. What
// SetRecords queued is not seen before the commit. It reads the index's
// few records it needs and the log's newest lines, never the whole log; a
// damaged index is read around, never an error.
func (tx *Tx) Record(key string) ([]byte, error) {
	if tx.Meta.Files[RelModelLog].Lines == 0 || tx.ref != nil {
		return nil, nil
	}
	for {
		v, err := tx.recordView()
		if err != nil {
			return nil, err
		}
		t, inTail := v.tail[key]
		if inTail && t.set {
			return ownValue(v.resolve(key, t, nil)), nil
		}
		var below []byte
		damaged := -1
		for i := len(v.segs) - 1; i >= 0; i-- {
			val, ok, err := v.segs[i].lookup(key)
			if err != nil {
				damaged = i
				break
			}
			if ok {
				below = val
				break
			}
		}
		if damaged >= 0 {
			if err := tx.dropSegments(damaged); err != nil {
				return nil, err
			}
			continue
		}
		if inTail {
			return ownValue(v.resolve(key, t, below)), nil
		}
		return ownValue(below), nil
	}
}

// resolve returns the value of a key the tail sets or merges: its set, or
// below (the segments' value) when it has none, with its merges applied.
// The result is kept as the tail's set, so the merges are applied once a
// transaction whatever the lookups.
func (v *recordView) resolve(key string, t tailRecord, below []byte) []byte {
	if len(t.merges) == 0 {
		return t.value
	}
	if t.set {
		below = t.value
	}
	val := applyMerges(below, t.merges)
	v.tail[key] = tailRecord{set: true, value: val}
	return val
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
// was set). A record whose Merge is false sets its key's value (a nil or
// JSON null value deletes the key); one whose Merge is true applies its
// value, a merge patch (RFC 7386) that must be a JSON object, to the
// key's value (to {} when the key has none). Several records for a key in
// one transaction combine in order, into one set or one merge: a set
// followed by merges is the set with the merges applied, merges followed
// by a set are the set, and merges are one merge doing what they do in
// turn. Where no single patch can (a merge removes a member or sets it to
// what is not an object, and a later one merges an object into it), the
// key's committed value is read and the line sets the result. A key that
// is not UTF-8, a value that is not JSON or a merge that is not an object
// is an error, and nothing of recs is queued.
func (tx *Tx) SetRecords(recs []Record) error {
	queued := map[string]Record{} // what recs makes of the keys it names
	for _, r := range recs {
		v, err := normalizeValue(r.Key, r.Value)
		if err != nil {
			return err
		}
		if r.Merge && !isJSONObject(v) {
			return fault.Internal(errors.New("a merge patch must be a JSON object"), "the merge for record %q", r.Key)
		}
		q, ok := queued[r.Key]
		if !ok {
			q, ok = tx.recordsSet[r.Key]
		}
		switch {
		case !ok || !r.Merge:
			q = Record{Key: r.Key, Value: v, Merge: r.Merge}
		case !q.Merge:
			q.Value = mergePatch(q.Value, v)
		default:
			if both, ok := composePatches(q.Value, v); ok {
				q.Value = both
				break
			}
			committed, err := tx.Record(r.Key)
			if err != nil {
				return err
			}
			q = Record{Key: r.Key, Value: mergePatch(mergePatch(committed, q.Value), v)}
		}
		queued[r.Key] = q
	}
	if tx.recordsSet == nil {
		tx.recordsSet = map[string]Record{}
	}
	maps.Copy(tx.recordsSet, queued)
	return nil
}

// recordLine is the model log's line for what SetRecords queued, with its
// newline; nil when nothing was.
func (tx *Tx) recordLine(seq int64) []byte {
	if len(tx.recordsSet) == 0 {
		return nil
	}
	recs := make([]Record, 0, len(tx.recordsSet))
	for _, r := range tx.recordsSet {
		recs = append(recs, r)
	}
	slices.SortFunc(recs, func(a, b Record) int { return strings.Compare(a.Key, b.Key) })
	return append(appendModelLine(nil, seq, recs), '\n')
}

// Records calls fn for every key of the model log that has a value, in key
// order, with its newest committed value (merges applied, as Record), until
// fn returns false. It reads
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
			var below []byte
			if t := v.tail[key]; !t.set {
				// Merges alone: on the newest segment's value, the first
				// cursor after the tail's at this key.
				for _, c := range cs[1:] {
					if !c.done && c.key == key {
						_, raw, err := c.seg.record(c.at, true)
						if err != nil {
							return fault.Internal(err, "read %s", RelRecordsDir)
						}
						below = raw
						break
					}
				}
			}
			val = v.resolve(key, v.tail[key], below)
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
