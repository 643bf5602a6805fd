package pgstore

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The mirror's version file, written over in place, reads back the last
// version written, whether the file was longer (an earlier ucs's, a
// stray), shorter or absent before.
func TestMirrorVersion(t *testing.T) {
	m := &mirror{name: "a", dir: filepath.Join(t.TempDir(), "a")}
	assert.Equal(t, int64(0), m.version(), "none")
	for _, v := range []int64{1, 12345, 7, 1 << 40, 2} {
		require.NoError(t, m.setVersion(v))
		assert.Equal(t, v, m.version())
	}
	require.NoError(t, os.WriteFile(m.dir+".version", []byte("3 "+bootID()+"\n"), 0o600)) // an earlier ucs's
	assert.Equal(t, int64(3), m.version())
	require.NoError(t, m.setVersion(4))
	assert.Equal(t, int64(4), m.version())
	require.NoError(t, os.WriteFile(m.dir+".version", []byte("9 "+bootID()+"\n"+string(make([]byte, 200))), 0o600))
	require.NoError(t, m.setVersion(5))
	assert.Equal(t, int64(5), m.version(), "a longer file is cut to the record")
	require.NoError(t, os.WriteFile(m.dir+".version", []byte("6 another-boot\n"), 0o600))
	assert.Equal(t, int64(0), m.version(), "another boot's: unknown")
}
