package replay_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/replay"
)

// session replays the fixture script into a fresh workspace and returns
// the workspace and every output, with the workspace path written as
// $WORKSPACE.
func session(t *testing.T, env func(string) string) (string, []string) {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "ws")
	require.NoError(t, os.MkdirAll(ws, 0o755))
	manifest, err := os.ReadFile(filepath.Join(fixtureDir, "aegis-manifest.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "manifest.json"), manifest, 0o644))
	var outs []string
	for _, step := range readScript(t, filepath.Join(fixtureDir, "script.jsonl")) {
		res, err := replay.Run(ucsRunner, ws, step, env)
		require.NoError(t, err)
		require.Equal(t, 0, res.Exit, "%v: %s", step.Args, res.Stderr)
		outs = append(outs, strings.ReplaceAll(string(pyjson.Indent(res.Output)), ws, "$WORKSPACE"))
	}
	return ws, outs
}

// files reads every file of a workspace but the lock, by relative path.
func files(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "lock" {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		out[rel], err = os.ReadFile(path)
		return err
	}))
	return out
}

// TestDeterministicReplay runs the fixture session twice, in two
// workspaces at different paths: every output and every file — journal,
// state, knowledge, Markdown — is the same byte for byte.
func TestDeterministicReplay(t *testing.T) {
	env := fixedClock("2026-11-21T21:01:00Z")
	ws1, out1 := session(t, env)
	ws2, out2 := session(t, env)
	assert.Equal(t, out1, out2)
	f1, f2 := files(t, ws1), files(t, ws2)
	require.NotEmpty(t, f1)
	assert.Equal(t, len(f1), len(f2))
	for name, data := range f1 {
		assert.True(t, bytes.Equal(data, f2[name]), "%s differs between the two runs", name)
	}
	assert.Contains(t, f1, "ucs/state/journal.jsonl")
}

func verify(t *testing.T, ws string, args ...string) replay.Result {
	t.Helper()
	res, err := replay.Run(ucsRunner, ws, replay.Step{Args: append([]string{"verify"}, args...), Stdin: pyjson.NullValue()}, fixedClock("2026-11-21T21:30:00Z"))
	require.NoError(t, err)
	return res
}

func intAt(v pyjson.Value, key string) int64 {
	x, _ := v.Get(key)
	n, _ := x.Int()
	return n
}

// journalLines returns the journal's lines.
func journalLines(t *testing.T, ws string) [][]byte {
	data, err := os.ReadFile(filepath.Join(ws, "ucs/state/journal.jsonl"))
	require.NoError(t, err)
	return bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
}

func writeJournal(t *testing.T, ws string, lines [][]byte) {
	data := bytes.Join(lines, nil)
	if !bytes.HasSuffix(data, []byte("\n")) {
		data = append(data, '\n')
	}
	require.NoError(t, os.WriteFile(filepath.Join(ws, "ucs/state/journal.jsonl"), data, 0o644))
}

// rehash gives an edited event a valid hash and relinks the chain after it,
// as a careful tamperer would.
func rehash(t *testing.T, lines [][]byte, from int) {
	prev := ""
	for i, l := range lines {
		ev, err := pyjson.Parse(bytes.TrimSpace(l))
		require.NoError(t, err)
		if i >= from {
			if i > 0 {
				ev = ev.With("parent", prev)
			}
			var ms []pyjson.Member
			for _, m := range ev.Members() {
				if m.Key != "hash" {
					ms = append(ms, m)
				}
			}
			sum := sha256.Sum256(pyjson.Canonical(pyjson.ObjectValue(ms)))
			ev = ev.With("hash", hex.EncodeToString(sum[:]))
			lines[i] = append(pyjson.Canonical(ev), '\n')
		}
		h, _ := ev.Get("hash")
		prev = h.Str()
	}
}

// editOutcome rewrites the outcome the report of event i+1 says it had.
func editOutcome(t *testing.T, lines [][]byte, i int) {
	t.Helper()
	require.Contains(t, string(lines[i]), `"success":"partial"`, "event %d is a partly successful report", i+1)
	lines[i] = bytes.Replace(lines[i], []byte(`"success":"partial"`), []byte(`"success":"success"`), 1)
}

// TestVerify: the fixture session verifies; each kind of tampering fails
// at the event it touched.
func TestVerify(t *testing.T) {
	ws, _ := session(t, fixedClock("2026-11-21T21:01:00Z"))
	res := verify(t, ws)
	require.Equal(t, 0, res.Exit, "%s", pyjson.Indent(res.Output))
	n := intAt(res.Output, "verified")
	assert.Equal(t, int64(56), n, "one event per state-changing call: init, 11 consults, 40 reports, 3 reflects, flush")

	cases := []struct {
		name   string
		tamper func(t *testing.T, ws string)
		event  int64
		msg    string
	}{
		{"a flipped byte in the state file", func(t *testing.T, ws string) {
			p := filepath.Join(ws, "ucs/state/torusfield_state.json")
			data, _ := os.ReadFile(p)
			i := bytes.Index(data, []byte(`"w": `)) + len(`"w": `) + 3
			data[i] = '9' - (data[i]-'0'+1)%10 // a different digit
			require.NoError(t, os.WriteFile(p, data, 0o644))
		}, 56, "torusfield_state.json is not the state the history produces"},
		{"an edited knowledge line", func(t *testing.T, ws string) {
			p := filepath.Join(ws, "ucs/state/methodology.jsonl")
			data, _ := os.ReadFile(p)
			require.NoError(t, os.WriteFile(p, bytes.Replace(data, []byte("Pricing"), []byte("Prising"), 1), 0o644))
		}, 56, "methodology.jsonl is not what the history produces"},
		{"a deleted event", func(t *testing.T, ws string) {
			lines := journalLines(t, ws)
			writeJournal(t, ws, append(lines[:10:10], lines[11:]...))
		}, 11, "an event was removed or inserted"},
		{"an edited input", func(t *testing.T, ws string) {
			lines := journalLines(t, ws)
			editOutcome(t, lines, 20)
			writeJournal(t, ws, lines)
		}, 21, "the event was edited"},
		{"an edited input with the chain recomputed", func(t *testing.T, ws string) {
			lines := journalLines(t, ws)
			editOutcome(t, lines, 20)
			rehash(t, lines, 20)
			writeJournal(t, ws, lines)
		}, 21, "does not reproduce the recorded state"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			copyWS := filepath.Join(t.TempDir(), "ws")
			require.NoError(t, os.CopyFS(copyWS, os.DirFS(ws)))
			c.tamper(t, copyWS)
			res := verify(t, copyWS)
			assert.Equal(t, 5, res.Exit, "%s", pyjson.Indent(res.Output))
			assert.Equal(t, c.event, intAt(res.Output, "event"), "%s", pyjson.Indent(res.Output))
			assert.Contains(t, string(pyjson.Indent(res.Output)), c.msg)
		})
	}
}

// TestVerifyAfterImportAndUnsortedInput: inputs whose keys are not in
// sorted order (a reasoning trace, an imported package) replay exactly.
func TestVerifyAfterImportAndUnsortedInput(t *testing.T) {
	src, _ := session(t, fixedClock("2026-11-21T21:01:00Z"))
	export, err := replay.Run(ucsRunner, src, replay.Step{Args: []string{"export"}, Stdin: pyjson.NullValue()}, fixedClock("2026-11-21T21:02:00Z"))
	require.NoError(t, err)
	ws := filepath.Join(t.TempDir(), "ws")
	env := fixedClock("2026-11-21T21:03:00Z")
	for _, step := range []replay.Step{
		{Args: []string{"init"}, Stdin: pyjson.NullValue()},
		{Args: []string{"import"}, Stdin: export.Output},
		{Args: []string{"report"}, Stdin: parseJSON(t, `{"success": "success", "action": "read", "reasoning_trace": {"zeta": "z", "decisive_factor": "d", "alternatives": "a"}}`)},
	} {
		res, err := replay.Run(ucsRunner, ws, step, env)
		require.NoError(t, err)
		require.Equal(t, 0, res.Exit, "%v: %s", step.Args, res.Stderr)
	}
	res := verify(t, ws)
	assert.Equal(t, 0, res.Exit, "%s", pyjson.Indent(res.Output))
}

func parseJSON(t *testing.T, s string) pyjson.Value {
	v, err := pyjson.Parse([]byte(s))
	require.NoError(t, err)
	return v
}

// TestVerifyFromSnapshot: with a snapshot every 10 events, verify can
// replay only the tail; a damaged snapshot is detected and skipped for an
// older one.
func TestVerifyFromSnapshot(t *testing.T) {
	env := func(k string) string {
		switch k {
		case "UCS_NOW":
			return "2026-11-21T21:01:00Z"
		case "UCS_SNAPSHOT_EVERY":
			return "10"
		}
		return ""
	}
	ws, _ := session(t, env)
	for _, seq := range []string{"10", "20", "30", "40", "50"} {
		assert.DirExists(t, filepath.Join(ws, "ucs/state/snapshots", seq))
	}
	res := verify(t, ws, "--from-snapshot")
	require.Equal(t, 0, res.Exit, "%s", pyjson.Indent(res.Output))
	assert.Equal(t, int64(50), intAt(res.Output, "replayed_from"))

	res = verify(t, ws, "--from", "35")
	require.Equal(t, 0, res.Exit, "%s", pyjson.Indent(res.Output))
	assert.Equal(t, int64(30), intAt(res.Output, "replayed_from"))

	// Damage snapshot 50: verify falls back to 40 and replays from there.
	p := filepath.Join(ws, "ucs/state/snapshots/50/methodology.jsonl")
	require.NoError(t, os.WriteFile(p, []byte("{}\n"), 0o644))
	res = verify(t, ws, "--from-snapshot")
	require.Equal(t, 0, res.Exit, "%s", pyjson.Indent(res.Output))
	assert.Equal(t, int64(40), intAt(res.Output, "replayed_from"))
}
