package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestRequestBuckets: records live in buckets of a thousand; a lookup
// searches the newest eleven (at least 10,000 ids), and starting a new
// bucket drops the ones too old to be searched.
func TestRequestBuckets(t *testing.T) {
	l := newTestWorkspace(t)
	tx, err := l.Begin(false)
	require.NoError(t, err)
	defer tx.Close()
	write := func(ordinal int, id string) {
		rec := pyjson.Obj(pyjson.KV("request_id", id), pyjson.KV("input_sha256", inputDigest(pyjson.Obj())),
			pyjson.KV("result", pyjson.Obj(pyjson.KV("n", ordinal))))
		path := l.path(requestRel(ordinal, requestKey(id)))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, pyjson.Indent(rec), 0o644))
	}
	for bucket := 0; bucket <= 11; bucket++ {
		write(bucket*requestBucket, fmt.Sprintf("id-%d", bucket))
	}
	tx.Meta.Requests = 11*requestBucket + 1 // the first record of bucket 11 was just written
	for bucket := 1; bucket <= 11; bucket++ {
		_, ok, err := tx.FindRequest(fmt.Sprintf("id-%d", bucket), pyjson.Obj())
		require.NoError(t, err)
		assert.True(t, ok, "bucket %d is searched", bucket)
	}
	_, ok, _ := tx.FindRequest("id-0", pyjson.Obj())
	assert.False(t, ok, "bucket 0 is older than the last 10,000 ids")
	pruneRequests(l, tx.Meta.Requests)
	assert.NoDirExists(t, l.path(RelRequests+"/0"))
	assert.DirExists(t, l.path(RelRequests+"/1"))
}

// A request recorded in a commit is found by the next transaction with its
// result; the same id with another input is a conflict.
func TestRequestRecorded(t *testing.T) {
	l := newTestWorkspace(t)
	in := pyjson.Obj(pyjson.KV("action", "read"), pyjson.KV("request_id", "r-1"))
	tx, err := l.Begin(true)
	require.NoError(t, err)
	tx.RecordRequest("r-1", "report", in, pyjson.Obj(pyjson.KV("ok", true)))
	_, err = tx.Commit(event("report", 0), testState)
	require.NoError(t, err)
	tx.Close()

	tx, err = l.Begin(false)
	require.NoError(t, err)
	defer tx.Close()
	got, ok, err := tx.FindRequest("r-1", in)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, `{"ok":true}`, string(pyjson.Canonical(got)))
	_, _, err = tx.FindRequest("r-1", pyjson.Obj(pyjson.KV("action", "exec")))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "already used for a different input")
	checkOK(t, l)
}
