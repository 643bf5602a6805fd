package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Idempotent retries. An agent whose call timed out sends it again; with
// the same request_id the second call returns the first call's result,
// marked "replayed": true, and changes nothing.
//
// Each applied request leaves a small record, written in the same commit as
// the call: ucs/state/requests/<bucket>/<sha256(id)>.json, where bucket is
// the request's ordinal divided by requestBucket. A lookup stats one file
// in each of the newest buckets, so it costs the same however many requests
// came before, and whole buckets older than the newest requestBuckets are
// dropped: at least the last (requestBuckets-1)·requestBucket ids are
// remembered.
const (
	RelRequests    = "ucs/state/requests"
	requestBucket  = 1000
	requestBuckets = 11 // remembers at least 10,000 ids
)

func requestKey(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:])
}

func requestRel(ordinal int, key string) string {
	return RelRequests + "/" + strconv.Itoa(ordinal/requestBucket) + "/" + key + ".json"
}

// inputDigest identifies a call's input, request_id aside, so a retry can be
// told from a different call that reuses an id.
func inputDigest(input pyjson.Value) string {
	var ms []pyjson.Member
	for _, m := range input.Members() {
		if m.Key != "request_id" {
			ms = append(ms, m)
		}
	}
	return sha256hex(pyjson.Canonical(pyjson.ObjectValue(ms)))
}

// FindRequest returns the stored result of an applied request with the
// same input; the same id with another input is a request_id_conflict.
func (tx *Tx) FindRequest(id string, input pyjson.Value) (pyjson.Value, bool, error) {
	key := requestKey(id)
	newest := tx.Meta.Requests / requestBucket
	for b := newest; b >= 0 && b > newest-requestBuckets; b-- {
		data, err := readFile(tx.l.path(requestRel(b*requestBucket, key)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return pyjson.Value{}, false, fault.Internal(err, "read request record")
		}
		rec, err := pyjson.Parse(data)
		if err != nil {
			return pyjson.Value{}, false, fault.Corrupt(err, requestRel(b*requestBucket, key))
		}
		if got, _ := rec.Get("request_id"); got.Str() != id {
			continue // a hash collision: never in practice, but not this request
		}
		if rec.StrOf("input_sha256") != inputDigest(input) {
			return pyjson.Value{}, false, fault.BadInput(fault.CodeRequestIDConflict,
				"use a new request_id for a different call; reuse one only to retry the very same call",
				"request_id %q was already used for a different input", id)
		}
		result, _ := rec.Get("result")
		return result, true, nil
	}
	return pyjson.Value{}, false, nil
}

// RecordRequest stages the record of an applied request in the commit.
func (tx *Tx) RecordRequest(id, op string, input, result pyjson.Value) {
	rec := pyjson.Obj(pyjson.KV("request_id", id), pyjson.KV("op", op), pyjson.KV("seq", tx.Meta.Seq+1),
		pyjson.KV("input_sha256", inputDigest(input)), pyjson.KV("result", result))
	tx.pending = append(tx.pending, pendingAppend{requestRel(tx.Meta.Requests, requestKey(id)), append(pyjson.Indent(rec), '\n')})
	tx.Meta.Requests++
	tx.requested = true
}

// pruneRequests drops the buckets too old to be looked up. It runs after a
// commit that recorded a request; a crash before it only leaves old
// records behind for the next call to drop.
func pruneRequests(l *Workspace, requests int) {
	if requests%requestBucket != 1 && requestBucket > 1 {
		return // only when a bucket has just been started
	}
	entries, err := os.ReadDir(l.path(RelRequests))
	if err != nil {
		return
	}
	oldest := requests/requestBucket - requestBuckets + 1
	for _, ent := range entries {
		if b, err := strconv.Atoi(ent.Name()); err == nil && b < oldest {
			l.opts.Writes.removed(l, RelRequests+"/"+ent.Name())
			os.RemoveAll(filepath.Join(l.path(RelRequests), ent.Name()))
		}
	}
}
