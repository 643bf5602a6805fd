package pgstore

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// A long-lived server's calls prepare their repeated statements on a
// connection that is the server's own, and answer as before; through a
// pooler in transaction mode, where a prepared statement may be on
// another server connection than the next transaction's, nothing is
// prepared. Either way the store holds the files byte for byte.
func TestPreparedOnTheServersOwnConnectionOnly(t *testing.T) {
	pooled, direct := pgtest.PooledDatabase(t)
	for _, c := range []struct {
		name, url string
		prepared  bool
	}{{"direct", direct, true}, {"pooled", pooled, false}} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			s, err := Open(ctx, c.url, Options{Workspace: "w-" + c.name, Cache: t.TempDir()})
			require.NoError(t, err)
			defer s.Close()
			do := func(op string, in pyjson.Value) string {
				var out pyjson.Value
				err := s.Run(ctx, op, bridge.Options{Now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}, func(br *bridge.Bridge) error {
					var err error
					out, err = br.Do(bridge.Call{Op: op, Args: pyjson.Obj(), Input: in})
					return err
				})
				require.NoError(t, err, op)
				return string(pyjson.AppendDumps(nil, out))
			}
			do("init", pyjson.NullValue())
			for range 5 {
				do("report", pyjson.Obj(pyjson.KV("action", "read"), pyjson.KV("success", "success")))
			}
			assert.Equal(t, c.prepared, len(s.prep.prepared) > 0, "prepared: %v", s.prep.prepared)
			assert.Equal(t, !c.prepared, s.prep.off)
			assert.Equal(t, int64(5), gjson.Get(do("status", pyjson.NullValue()), "reports_total").Int())
			assert.Equal(t, int64(6), gjson.Get(do("verify", pyjson.NullValue()), "verified").Int(), "every event verified")
			// The files as the calls wrote them (binary parameters, once
			// prepared), byte for byte.
			copyDir := filepath.Join(t.TempDir(), "copy")
			_, err = s.Pull(ctx, copyDir)
			require.NoError(t, err)
			for _, rel := range []string{workspace.RelState, workspace.RelJournal} {
				want, err := os.ReadFile(filepath.Join(s.mirrorOf(s.opts.Workspace).dir, filepath.FromSlash(rel)))
				require.NoError(t, err)
				got, err := os.ReadFile(filepath.Join(copyDir, filepath.FromSlash(rel)))
				require.NoError(t, err)
				assert.True(t, bytes.Equal(want, got), rel)
			}
		})
	}
}
