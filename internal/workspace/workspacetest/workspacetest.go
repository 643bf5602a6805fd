// Package workspacetest helps tests of the storage and of the operations
// compare workspaces on disk.
package workspacetest

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Fingerprint hashes every file of a workspace but the lock and the
// state's .prev link, which are aids, not state: a rolled-back call may
// leave .prev pointing at the (unchanged) committed state. Two workspaces
// hold the same state when their fingerprints are equal.
func Fingerprint(t testing.TB, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "lock" || strings.HasSuffix(d.Name(), ".prev") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		rel, _ := filepath.Rel(root, path)
		lines = append(lines, rel+" "+hex.EncodeToString(sum[:]))
		return nil
	})
	require.NoError(t, err)
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
