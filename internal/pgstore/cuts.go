package pgstore

import (
	"bytes"
	"context"

	"github.com/tidwall/gjson"
)

// A call that is not an append to the journal or to an append-only file
// either wrote it anew (init --force) or cut it back: check --repair rolls
// a bricked last event back (the journal cut before its line, the files it
// appended to cut to the offsets it recorded) and commits its record in
// its place. A scan cannot tell which (it keeps only a file's last bytes),
// so cutBack asks the store, on this rare path only: what the store holds
// of a file and the mirror still holds too is kept, and only the rest
// changes (the bad event's row replaced by the record's, the chunks past a
// cut deleted), not the whole journal and every file stored again.

// cutBack settles a call's rewritten journal (the whole file, when
// rewritten) and its shrunk files against the store's rows, read in the
// call's transaction: it returns how many of the store's events the
// journal keeps (-1 when it was not rewritten) and the lines after them,
// and marks each shrunk file that still holds what the store holds before
// its new end as cut there.
func cutBack(ctx context.Context, q querier, name string, cs []change, journal []byte, rewritten bool) (keep int64, rest []byte, err error) {
	keep, rest = -1, journal
	if rewritten {
		if keep, rest, err = keptEvents(ctx, q, name, journal); err != nil {
			return 0, nil, err
		}
	}
	for i, c := range cs {
		if !c.shrunk || len(c.data) == 0 {
			continue
		}
		size := int64(len(c.data))
		from := max(0, size-tailBytes)
		held, err := storedRange(ctx, q, name, c.path, from, size)
		if err != nil {
			return 0, nil, err
		}
		if bytes.Equal(held, c.data[from:]) {
			cs[i] = change{path: c.path, cut: true, off: size}
		}
	}
	return keep, rest, nil
}

// keptEvents counts the journal's first events that are the store's
// (seq, hash and length; the hash chain makes a prefix of them the same
// history) and returns the lines after them.
func keptEvents(ctx context.Context, q querier, name string, journal []byte) (int64, []byte, error) {
	rows, err := q.Query(ctx, `SELECT seq, hash, length(line) FROM ucs_journal WHERE workspace = $1 ORDER BY seq`, name)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	var keep int64
	for rows.Next() {
		var seq, n int64
		var hash string
		if err := rows.Scan(&seq, &hash, &n); err != nil {
			return 0, nil, err
		}
		i := bytes.IndexByte(journal, '\n')
		if i < 0 || int64(i+1) != n {
			break
		}
		line := journal[:i+1]
		if gjson.GetBytes(line, "seq").Int() != seq || gjson.GetBytes(line, "hash").String() != hash {
			break
		}
		keep, journal = seq, journal[i+1:]
	}
	return keep, journal, rows.Err()
}

// storedRange is the bytes [from, to) of an append-only file as the
// store's chunks hold them, or nil when they do not cover the range.
func storedRange(ctx context.Context, q querier, name, path string, from, to int64) ([]byte, error) {
	rows, err := q.Query(ctx, `SELECT off, data FROM ucs_chunks WHERE workspace = $1 AND path = $2
		AND off < $4 AND off + length(data) > $3 ORDER BY off`, name, path, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]byte, 0, to-from)
	for rows.Next() {
		var off int64
		var data []byte
		if err := rows.Scan(&off, &data); err != nil {
			return nil, err
		}
		at := from + int64(len(out)) // the next byte wanted
		if off > at {
			return nil, rows.Err() // a gap
		}
		end := min(off+int64(len(data)), to)
		if end > at {
			out = append(out, data[at-off:end-off]...)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if int64(len(out)) != to-from {
		return nil, nil
	}
	return out, nil
}
