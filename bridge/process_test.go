package bridge

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// binDir is the directory buildUCS built into; TestMain removes it.
var binDir string

// buildUCS builds the ucs binary once for the process tests.
var buildUCS = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "ucs-bin")
	if err != nil {
		return "", err
	}
	binDir = dir
	bin := filepath.Join(dir, "ucs")
	out, err := exec.Command("go", "build", "-o", bin, "../cmd/ucs").CombinedOutput()
	if err != nil {
		return "", &exec.ExitError{Stderr: out}
	}
	return bin, nil
})

func ucsBinary(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command to build ucs")
	}
	bin, err := buildUCS()
	require.NoError(t, err)
	return bin
}

func ucsCmd(bin, ws string, stdin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, append([]string{"--workspace", ws}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "UCS_NOW=2026-11-21T21:01:00Z", "UCS_MODEL=v2")
	return cmd
}

// TestKilledReports kills 150 report processes with SIGKILL at random
// moments. After each kill the next call recovers, check passes, and the
// engine's t, the action log and the report counter agree: every report is
// either fully there or fully absent.
func TestKilledReports(t *testing.T) {
	bin := ucsBinary(t)
	ws := filepath.Join(t.TempDir(), "ws")
	require.NoError(t, ucsCmd(bin, ws, "", "init").Run())
	b := New(Options{Workspace: ws, Now: testNow})

	// How long does a report take here? Kill within that window.
	start := time.Now()
	require.NoError(t, ucsCmd(bin, ws, `{"action": "read", "success": "success"}`, "report").Run())
	window := time.Since(start)
	landed := 1
	rng := rand.New(rand.NewPCG(1, 2))
	actions := []string{"web_fetch", "read", "foundry_research", "read"}
	var killedBefore, rolledBack, survived int
	for i := range 150 {
		cmd := ucsCmd(bin, ws, `{"action": "`+actions[i%len(actions)]+`", "success": "success", "significance": "notable"}`, "report")
		require.NoError(t, cmd.Start())
		time.Sleep(time.Duration(rng.Int64N(int64(window) * 3 / 2)))
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		if err == nil {
			survived++
		}
		// The next call (a read) recovers what the kill left.
		var out bytes.Buffer
		status := ucsCmd(bin, ws, "", "status")
		status.Stdout = &out
		require.NoError(t, status.Run(), "kill %d: status after the kill", i)
		if strings.Contains(out.String(), "rolled back") {
			rolledBack++
		}
		lines := entries(t, b, workspace.RelActionLog)
		if len(lines) == landed {
			killedBefore++
		}
		landed = len(lines)
		invariants(t, b, landed)
		assert.Empty(t, stateTemps(t, ws), "kill %d: the recovery removed the unfinished state file", i)
		if t.Failed() {
			t.Fatalf("kill %d broke the workspace", i)
		}
	}
	t.Logf("150 kills within %v: %d reports landed, %d calls rolled back mid-commit, %d killed before committing, %d finished before the kill",
		window*3/2, landed-1, rolledBack, killedBefore, survived)
}

// TestConcurrentReports: 8 processes × 25 reports at once on one workspace.
// The lock serializes them: 200 of 200 are counted in t, the action log,
// the journal and the counter, and no call fails.
func TestConcurrentReports(t *testing.T) {
	bin := ucsBinary(t)
	ws := filepath.Join(t.TempDir(), "ws")
	require.NoError(t, ucsCmd(bin, ws, "", "init").Run())
	var wg sync.WaitGroup
	errs := make(chan string, 200)
	for p := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				body := `{"action": "read", "outcome": "p` + string(rune('0'+p)) + `", "success": "success", "request_id": "p` +
					string(rune('0'+p)) + "-" + string(rune('a'+i)) + `"}`
				var out, stderr bytes.Buffer
				cmd := ucsCmd(bin, ws, body, "report")
				cmd.Stdout, cmd.Stderr = &out, &stderr
				if err := cmd.Run(); err != nil {
					errs <- err.Error() + ": " + stderr.String()
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	b := New(Options{Workspace: ws, Now: testNow})
	invariants(t, b, 200)
	out, err := b.Check(false)
	require.NoError(t, err)
	events, _ := out.Get("journal_events")
	n, _ := events.Int()
	assert.Equal(t, int64(201), n, "init and 200 reports in the journal")
}
