//go:build unix

package bridge

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestWorkspaceModes: whatever the umask, every directory ucs makes is the
// owner's alone (0700) and every file too (0600), the state file renameio
// writes, the index, snapshots, backups and request records included; check
// warns, without failing, once others can read something.
func TestWorkspaceModes(t *testing.T) {
	for _, mask := range []int{0o000, 0o022} {
		t.Run(fmt.Sprintf("umask %04o", mask), func(t *testing.T) {
			defer syscall.Umask(syscall.Umask(mask))
			agent := filepath.Join(t.TempDir(), "agent") // made by init, as the workspace's parent
			ws := filepath.Join(agent, "ws")
			b := New(Options{Workspace: ws, Now: testNow, SnapshotEvery: 2})
			_, err := b.Do(Call{Op: "init"})
			require.NoError(t, err)
			_, err = report(t, b, "read", `, "request_id": "r-1", "significance": "notable"`)
			require.NoError(t, err)
			_, err = b.Do(Call{Op: "reflect", Input: input(t, `{"type": "post_task", "text": "Read first.", "capabilities": ["read"], "keywords": ["brief"]}`)})
			require.NoError(t, err)
			_, err = b.Do(Call{Op: "reflect", Input: input(t, `{"type": "synthesis", "text": "Reading pays."}`)})
			require.NoError(t, err)
			_, err = b.Do(Call{Op: "consult", Args: argsOf("context", "read the brief")})
			require.NoError(t, err)
			_, err = b.Do(Call{Op: "flush"})
			require.NoError(t, err)
			// A torn line makes check --repair keep it in a backup.
			f, err := os.OpenFile(filepath.Join(ws, "ucs/state/methodology.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
			require.NoError(t, err)
			_, err = f.WriteString(`{"torn`)
			require.NoError(t, err)
			require.NoError(t, f.Close())
			_, err = b.Check(true)
			require.NoError(t, err)
			_, err = b.Do(Call{Op: "init", Args: pyjson.Obj(pyjson.KV("force", true))})
			require.NoError(t, err)

			var paths []string
			require.NoError(t, filepath.WalkDir(agent, func(path string, d fs.DirEntry, err error) error {
				require.NoError(t, err)
				info, err := d.Info()
				require.NoError(t, err)
				rel, _ := filepath.Rel(agent, path)
				switch {
				case d.IsDir():
					assert.Equal(t, os.FileMode(0o700), info.Mode().Perm(), "%s", rel)
				case d.Type().IsRegular():
					assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "%s", rel)
				}
				paths = append(paths, filepath.ToSlash(rel))
				return nil
			}))
			for _, dir := range []string{"/requests/", "/index-v1/", "/snapshots/", "/backup/", "/synthesis/", "/working-state"} {
				assert.True(t, slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(p, dir) }), "nothing in %s", dir)
			}

			out, err := b.Check(false)
			require.NoError(t, err)
			_, ok := out.Get("warnings")
			assert.False(t, ok, "no warning for a workspace only its owner can read")
			require.NoError(t, os.Chmod(filepath.Join(ws, "ucs/state/journal.jsonl"), 0o644))
			out, err = b.Check(false)
			require.NoError(t, err, "others reading the workspace is a warning, not a problem")
			warnings, _ := out.Get("warnings")
			require.Len(t, warnings.Items(), 1)
			assert.Contains(t, warnings.Items()[0].Str(), "1 of the workspace's files and directories are open to group or others (ucs/state/journal.jsonl 0644)")
		})
	}
}
