package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLastLine covers the backwards scan for a file's last line, with and
// without a limit: lines shorter and longer than the first chunk and the
// limit, torn tails, and files without a whole line.
func TestLastLine(t *testing.T) {
	long := strings.Repeat("x", 70000) // longer than a 64 KiB limit
	mid := strings.Repeat("m", 10000)  // longer than the first 4 KiB chunk
	cases := []struct {
		name     string
		content  string
		limit    int64
		line     string
		tail     bool // the limit was reached before a whole line
		nilLine  bool
		tornFrom int // the offset the committed content ends at; -1: the file's length
	}{
		{name: "empty", content: "", nilLine: true},
		{name: "one line", content: "a\n", line: "a", tornFrom: -1},
		{name: "two lines", content: "a\nbc\n", line: "bc", tornFrom: -1},
		{name: "torn tail", content: "a\nbc\nde", line: "bc", tornFrom: 5},
		{name: "only torn", content: "abc", nilLine: true},
		{name: "line past the first chunk", content: "a\n" + mid + "\n", line: mid, tornFrom: -1},
		{name: "line past the first chunk, limited", content: "a\n" + mid + "\n", limit: 65536, line: mid, tornFrom: -1},
		{name: "line past the limit", content: "a\n" + long + "\n", limit: 65536, tail: true, tornFrom: -1},
		{name: "line past the limit, unlimited", content: "a\n" + long + "\n", line: long, tornFrom: -1},
		{name: "first line past the limit", content: long + "\n", limit: 65536, tail: true, tornFrom: -1},
		{name: "torn tail past the limit", content: "a\n" + long, limit: 65536, line: "a", tornFrom: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f.jsonl")
			require.NoError(t, os.WriteFile(p, []byte(tc.content), 0o644))
			f, err := os.Open(p)
			require.NoError(t, err)
			defer f.Close()
			line, end, tail, err := lastLine(f, int64(len(tc.content)), tc.limit)
			require.NoError(t, err)
			want := int64(tc.tornFrom)
			if tc.tornFrom < 0 {
				want = int64(len(tc.content))
			}
			switch {
			case tc.tail:
				assert.Nil(t, line)
				assert.Len(t, tail, int(tc.limit))
				assert.True(t, strings.HasSuffix(string(tail), "\n"))
				assert.True(t, strings.HasSuffix(tc.content, string(tail)))
				assert.Equal(t, want, end)
			case tc.nilLine:
				assert.Nil(t, line)
				assert.Nil(t, tail)
			default:
				assert.Equal(t, tc.line, string(line))
				assert.Nil(t, tail)
				assert.Equal(t, want, end)
			}
		})
	}
}
