package newuser

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The calls are the script's: one per ucs line, on the workspace it
// names, failing where it is negated, each report reading its file.
func TestCallsAreTheScripts(t *testing.T) {
	raw, err := os.ReadFile("../../../testdata/manifests/coding.json")
	require.NoError(t, err)
	s, err := Generate(raw, DefaultSeed, false)
	require.NoError(t, err)
	var lines []string
	for l := range strings.SplitSeq(s.Script, "\n") {
		if strings.HasPrefix(l, "-- ") {
			break // the archive's files
		}
		if strings.Contains(l, "exec ucs --workspace ") {
			lines = append(lines, l)
		}
	}
	require.Len(t, s.Calls, len(lines))
	for i, c := range s.Calls {
		assert.Equal(t, strings.HasPrefix(lines[i], "! "), c.Fails, lines[i])
		assert.Contains(t, lines[i], "ucs --workspace "+c.Workspace+" "+c.Args[0], lines[i])
		if c.Args[0] == "report" {
			assert.True(t, strings.HasPrefix(c.Input, "{"), "a report reads its outcome: %s", lines[i])
		}
		if c.Args[0] == "import" {
			assert.Equal(t, "export.json", c.InputFile)
			assert.Equal(t, "ws2", c.Workspace)
		}
	}
	assert.Equal(t, []string{"init", "--manifest", "coding.json"}, s.Calls[0].Args)
}

// Kinds are copies: a caller cannot change the plan.
func TestKindsAreCopies(t *testing.T) {
	k := Kinds()
	require.Len(t, k, 4)
	k[0].Rule[0] = "changed"
	assert.NotEqual(t, "changed", Kinds()[0].Rule[0])
}
