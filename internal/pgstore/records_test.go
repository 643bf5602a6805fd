package pgstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// The model log is stored like every data file and reaches another
// mirror; its index, derived, is not stored, and the other mirror reads
// the same records without it.
func TestModelLogInTheStore(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Database(t)
	open := func() *Store {
		s, err := Open(ctx, url, Options{Workspace: "a", Cache: t.TempDir()})
		require.NoError(t, err)
		t.Cleanup(s.Close)
		return s
	}
	ev := func(op string, t int64) workspace.Event {
		return workspace.Event{Op: op, Args: pyjson.Obj(), Input: pyjson.NullValue(), Now: "2026-11-21T21:01:00+00:00",
			TBefore: t, TAfter: t + 1, Agent: "test"}
	}
	state := func(dst []byte, lead pyjson.Member) []byte { return pyjson.AppendCompact(dst, pyjson.Obj(lead)) }
	key := func(i int) string { return fmt.Sprintf("%d\x1fread_file", i%40) }

	s := open()
	var mirror string
	require.NoError(t, s.Call(ctx, CallOptions{Create: true}, func(dir string, _ []Peer) error {
		mirror = dir
		tx, err := workspace.New(dir, workspace.Options{NoSync: true}).Create(false, time.Now())
		require.NoError(t, err)
		defer tx.Close()
		tx.Meta.Model, tx.Meta.AgentID = workspace.LegacyModel, "test"
		tx.Pin(torusfield.DefaultManifestJSON(), torusfield.DefaultManifest())
		_, err = tx.Commit(ev("init", 0), state)
		return err
	}))
	for c := range 30 {
		require.NoError(t, s.Call(ctx, CallOptions{}, func(dir string, _ []Peer) error {
			tx, err := workspace.New(dir, workspace.Options{NoSync: true}).Begin(true)
			require.NoError(t, err)
			defer tx.Close()
			_, err = tx.Record(key(c)) // grows the index
			require.NoError(t, err)
			require.NoError(t, tx.SetRecords([]workspace.Record{{Key: key(c), Value: fmt.Appendf(nil, "%d", c)}}))
			_, err = tx.Commit(ev("test", tx.Meta.Seq), state)
			return err
		}))
	}
	assert.DirExists(t, filepath.Join(mirror, workspace.RelRecordsDir), "the first mirror grew an index")

	other := open()
	require.NoError(t, other.Call(ctx, CallOptions{}, func(dir string, _ []Peer) error {
		want, err := os.ReadFile(filepath.Join(mirror, workspace.RelModelLog))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dir, workspace.RelModelLog))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
		assert.NoDirExists(t, filepath.Join(dir, workspace.RelRecordsDir), "the index is not stored")
		tx, err := workspace.New(dir, workspace.Options{NoSync: true}).Begin(false)
		require.NoError(t, err)
		defer tx.Close()
		for c := 10; c < 30; c++ {
			v, err := tx.Record(key(c))
			require.NoError(t, err)
			assert.Equal(t, fmt.Sprint(c), string(v), key(c))
		}
		return nil
	}))
}
