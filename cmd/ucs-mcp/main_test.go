package main

import (
	"bytes"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	buildinfo "github.com/unified-cognitive-substrate/ucs/internal/version"
)

// asServer makes the test binary run main, as ucs-mcp, in a subprocess.
const asServer = "UCS_MCP_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asServer) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestStartErrors: a server that cannot start says why as the command line
// says exec's errors: one JSON line on stderr (stdout is the protocol's,
// and stays empty), the exit code its kind.
func TestStartErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  []string
		want string
	}{
		{"an argument", []string{"extra"}, nil,
			`{"error": "unexpected argument \"extra\"", "code": "usage", "hint": "run ` + "`ucs-mcp --help`" + ` for usage"}`},
		{"a bad clock", nil, []string{"UCS_NOW=yesterday"}, `"code": "invalid_clock"`},
		{"a bad lock timeout", nil, []string{"UCS_LOCK_TIMEOUT=-1s"}, `"code": "invalid_lock_timeout"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], append([]string{"--workspace", t.TempDir()}, tt.args...)...)
			cmd.Env = append(append(os.Environ(), asServer+"=1"), tt.env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, 2, ee.ExitCode())
			assert.Empty(t, stdout.String())
			assert.Contains(t, stderr.String(), tt.want)
			assert.Equal(t, 1, bytes.Count(stderr.Bytes(), []byte("\n")), "one line: %q", stderr.String())
		})
	}
}

// ucs-mcp -version says the build's version, as ucs version does, not a
// constant of its own (it said 0.1.0 whatever the build), as JSON (it
// printed the JSON's bytes as a list of numbers).
func TestVersionIsTheBuilds(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-version")
	cmd.Env = append(os.Environ(), asServer+"=1")
	out, err := cmd.Output()
	require.NoError(t, err)
	assert.JSONEq(t, `{"ucs": "`+buildinfo.Version()+`"}`, string(out))
	assert.NotEqual(t, "0.1.0", buildinfo.Version(), "a test binary has no release stamp")
}
