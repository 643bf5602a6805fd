package pgstore

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/pgtest"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// A call whose write log is complete stores what the log names; one whose
// log is untracked (files changed outside a commit) is compared with the
// store's rows: both leave the store holding the mirror's files, byte for
// byte, as a pull shows.
func TestCallFromTheWriteLog(t *testing.T) {
	for _, untracked := range []bool{false, true} {
		name := map[bool]string{false: "logged", true: "untracked"}[untracked]
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			s, err := Open(ctx, pgtest.Database(t), Options{Workspace: "a", Cache: t.TempDir()})
			require.NoError(t, err)
			defer s.Close()
			write := func(dir, rel, data string, appendTo bool) {
				name := filepath.Join(dir, filepath.FromSlash(rel))
				require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o700))
				flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
				if appendTo {
					flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
				}
				f, err := os.OpenFile(name, flag, 0o600)
				require.NoError(t, err)
				_, err = f.WriteString(data)
				require.NoError(t, err)
				require.NoError(t, f.Close())
			}
			// Version 1, by scans (a created workspace).
			require.NoError(t, s.Call(ctx, CallOptions{Create: true}, func(dir string, _ []Peer) error {
				write(dir, workspace.RelJournal, `{"hash":"h1","seq":1}`+"\n", true)
				write(dir, workspace.RelActionLog, "one\n", true)
				write(dir, workspace.RelState, `{"ucs":{"seq":1}}`, false)
				write(dir, workspace.RelRequests+"/0/r.json", "{}\n", false)
				return nil
			}))
			// Version 2, from the log: an event, an append, the state, a
			// new file, a removed one; a derived file the store does not
			// keep.
			w := &workspace.WriteLog{}
			var mirror string
			require.NoError(t, s.Call(ctx, CallOptions{Writes: w}, func(dir string, _ []Peer) error {
				mirror = dir
				event, line, state := `{"hash":"h2","seq":2}`+"\n", "two\n", `{"ucs":{"seq":2}}`
				jsize, _ := fileSize(filepath.Join(dir, filepath.FromSlash(workspace.RelJournal)))
				asize, _ := fileSize(filepath.Join(dir, filepath.FromSlash(workspace.RelActionLog)))
				write(dir, workspace.RelJournal, event, true)
				write(dir, workspace.RelActionLog, line, true)
				write(dir, workspace.RelState, state, false)
				write(dir, workspace.RelMethodology, "m\n", false)
				write(dir, workspace.RelIndexDir+"/x", "derived", false)
				require.NoError(t, os.Remove(filepath.Join(dir, filepath.FromSlash(workspace.RelRequests+"/0/r.json"))))
				w.Files = []workspace.FileWrite{
					{Rel: workspace.RelJournal, Off: jsize, Data: []byte(event)},
					{Rel: workspace.RelActionLog, Off: asize, Data: []byte(line)},
					{Rel: workspace.RelState, Whole: true, Data: []byte(state)},
					{Rel: workspace.RelMethodology, Whole: true, Data: []byte("m\n")},
					{Rel: workspace.RelIndexDir + "/x", Whole: true, Data: []byte("derived")},
					{Rel: workspace.RelRequests + "/0/r.json", Removed: true},
				}
				w.Untracked = untracked
				return nil
			}))
			pulled := filepath.Join(t.TempDir(), "pulled")
			v, err := s.Pull(ctx, pulled)
			require.NoError(t, err)
			assert.Equal(t, int64(2), v)
			assert.Equal(t, storedOf(t, mirror), storedOf(t, pulled))
			assert.Equal(t, map[string]string{
				workspace.RelJournal:     `{"hash":"h1","seq":1}` + "\n" + `{"hash":"h2","seq":2}` + "\n",
				workspace.RelActionLog:   "one\ntwo\n",
				workspace.RelState:       `{"ucs":{"seq":2}}`,
				workspace.RelMethodology: "m\n",
			}, storedOf(t, pulled))
		})
	}
}

// storedOf reads the files of dir that a store keeps.
func storedOf(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(name string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, name)
		rel = filepath.ToSlash(rel)
		if keep, _ := stored(rel); keep {
			b, err := os.ReadFile(name)
			require.NoError(t, err)
			out[rel] = string(b)
		}
		return nil
	}))
	return out
}
