package pgstore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/bridge"
	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
	"github.com/unified-cognitive-substrate/ucs/internal/pgstore"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestWarmOnAMirror: a store's server keeps its decoded engine between
// calls on its mirror (bridge.Warm, as ucs-mcp --store does), and answers
// and writes what a server without one does: the same calls on two
// workspaces of one store, one through a Warm, give the same answers and
// the same state file in each mirror, also when another process (a
// mirror of its own) commits on each workspace between two calls, which
// makes the warm server's next call decode the state its mirror was
// brought up to from the rows.
func TestWarmOnAMirror(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Database(t)
	cache, otherCache := t.TempDir(), t.TempDir() // a server's mirrors, another process's
	open := func(name, cache string) *pgstore.Store {
		st, err := pgstore.Open(ctx, url, pgstore.Options{Workspace: name, Cache: cache})
		require.NoError(t, err)
		t.Cleanup(st.Close)
		return st
	}
	warmSt, coldSt := open("warm", cache), open("cold", cache)
	w := bridge.NewWarm()
	clock := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	run := func(st *pgstore.Store, warm *bridge.Warm, op string, args, in pyjson.Value) string {
		var out pyjson.Value
		opts := bridge.Options{Now: clock, AgentID: "agent", Warm: warm}
		err := st.Run(ctx, op, opts, func(b *bridge.Bridge) error {
			var err error
			out, err = b.Do(bridge.Call{Op: op, Args: args, Input: in})
			return err
		})
		return string(pyjson.AppendCompact(nil, out)) + fmt.Sprint(err)
	}
	state := func(st *pgstore.Store) string { // the mirror's state file
		var data []byte
		require.NoError(t, st.Run(ctx, "status", bridge.Options{Now: clock, AgentID: "agent"}, func(b *bridge.Bridge) error {
			var err error
			data, err = os.ReadFile(filepath.Join(b.Workspace().Root(), "ucs/state/torusfield_state.json"))
			return err
		}))
		return string(data)
	}
	parse := func(s string) pyjson.Value {
		v, err := pyjson.Parse([]byte(s))
		require.NoError(t, err)
		return v
	}
	do := func(op, args, in string) {
		t.Helper()
		clock = clock.Add(time.Minute)
		cold := run(coldSt, nil, op, parse(args), parse(in))
		warm := run(warmSt, w, op, parse(args), parse(in))
		require.True(t, strings.HasSuffix(warm, "<nil>"), "%s: %s", op, warm)
		require.Equal(t, strings.ReplaceAll(cold, "/cold", "/warm"), warm, op) // the mirror's path
		require.Equal(t, state(coldSt), state(warmSt), "%s: the state file", op)
	}
	do("init", `{}`, `null`)
	other := [2]*pgstore.Store{open("warm", otherCache), open("cold", otherCache)}
	for i, action := range []string{"read", "web_fetch", "read", "write", "exec", "read", "edit", "read"} {
		do("consult", `{"context": "read the brief"}`, `null`)
		if i == 3 {
			clock = clock.Add(time.Minute)
			for _, st := range other {
				out := run(st, nil, "report", pyjson.Obj(), parse(`{"action": "edit", "success": "partial"}`))
				require.True(t, strings.HasSuffix(out, "<nil>"), out)
			}
		}
		do("report", `{}`, `{"action": "`+action+`", "success": "success", "context": "read the brief"}`)
	}
	hits, misses := w.Stats()
	require.Equal(t, [2]int{14, 2}, [2]int{hits, misses}, "the first call after init and the one after another process's commit decode")
}
