package workspace

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace/workspacetest"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A workspace may come from a shared folder, a tarball or a repository:
// these tests plant links and other files that are not the workspace's
// own, and require that no call reads, writes or truncates through them,
// that each is an error of kind corrupt naming it, and that check reports
// it.

// victim is a file outside the workspace a link points at, holding data.
func victim(t *testing.T, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "victim")
	require.NoError(t, os.WriteFile(path, []byte(data), 0o600))
	return path
}

func requireUntouched(t *testing.T, path, data string) {
	t.Helper()
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, data, string(got), "the file outside the workspace is untouched")
}

// requireNotRegular requires err to be the corrupt error naming rel.
func requireNotRegular(t *testing.T, err error, rel string) {
	t.Helper()
	require.Error(t, err)
	fe := fault.AsError(err)
	assert.Equal(t, fault.KindCorrupt, fe.Kind, "%v", err)
	assert.Equal(t, "workspace_corrupt", fe.Code)
	assert.Contains(t, fe.Msg, filepath.FromSlash(rel))
}

// appendEvent appends a journal line: an event as a killed call would
// have left it, one ahead of the state file, naming files.
func appendEvent(t *testing.T, l *Workspace, seq int64, files pyjson.Value) {
	t.Helper()
	line := pyjson.AppendCompact(nil, pyjson.Obj(pyjson.KV("files", files), pyjson.KV("op", "report"),
		pyjson.KV("seq", seq), pyjson.KV("state_after", "00")))
	f, err := os.OpenFile(l.Path(RelJournal), os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.Write(append(line, '\n'))
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// A journal tail naming a link the attacker planted, at length 0, must
// not make recovery truncate the link's target: the name is outside the
// layout, and the file is a link. Nothing is changed, the call fails as
// corrupt, and check reports it.
func TestRecoveryDoesNotTruncateWhatTheJournalNames(t *testing.T) {
	const data = "the victim's data\n"
	for _, tc := range []struct {
		name  string
		rel   string // what the journal names
		plant string // where the link goes ("": nowhere)
	}{
		{"link outside the layout", "ucs/state/evil.jsonl", "ucs/state/evil.jsonl"},
		{"link in place of a data file", RelMethodology, RelMethodology},
		{"link in place of a Markdown file", RelMethodologyMD, RelMethodologyMD},
		{"dot-dot", "ucs/state/../../victim", ""},
		{"absolute", "/etc/passwd", ""},
		{"unknown name", "ucs/state/evil.jsonl", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newTestWorkspace(t)
			commit(t, l, map[string][]pyjson.Value{RelMethodology: {entry("keep me", "read")}})
			v := victim(t, data)
			if tc.plant != "" {
				os.Remove(l.Path(tc.plant))
				require.NoError(t, os.Symlink(v, l.Path(tc.plant)))
			}
			appendEvent(t, l, 3, pyjson.Obj(pyjson.KV(tc.rel, 0)))
			before := workspacetest.Fingerprint(t, l.Root())

			_, err := l.Begin(false)
			require.Error(t, err)
			assert.Equal(t, fault.KindCorrupt, fault.AsError(err).Kind, "%v", err)
			requireUntouched(t, v, data)
			assert.Equal(t, before, workspacetest.Fingerprint(t, l.Root()), "the workspace is unchanged")

			_, err = l.Check(false, testNow, noStateCheck)
			require.Error(t, err, "check reports it")
			assert.Equal(t, fault.KindCorrupt, fault.AsError(err).Kind)
			_, err = l.Check(true, testNow, noStateCheck)
			require.Error(t, err, "repair does not act on it either")
			requireUntouched(t, v, data)
		})
	}
}

// An append-only file replaced by a link to a copy of itself (so that its
// content still matches what was committed) is refused by the next call
// that reads or appends to it, and reported by check; the copy is never
// written.
func TestLinkedFileIsRefused(t *testing.T) {
	for _, rel := range []string{RelJournal, RelActionLog, RelMethodologyMD, RelPinned, RelState} {
		t.Run(rel, func(t *testing.T) {
			l := newTestWorkspace(t)
			tx, err := l.Begin(true)
			require.NoError(t, err)
			tx.Add(RelActionLog, pyjson.Obj(pyjson.KV("action", "read")))
			tx.Append(RelMethodologyMD, []byte("\nread first\n"))
			_, err = tx.Commit(event("test", 1), testState)
			require.NoError(t, err)
			tx.Close()

			data, err := os.ReadFile(l.Path(rel))
			require.NoError(t, err)
			v := victim(t, string(data))
			require.NoError(t, os.Remove(l.Path(rel)))
			require.NoError(t, os.Symlink(v, l.Path(rel)))

			tx, err = l.Begin(true)
			if err == nil {
				tx.Add(RelActionLog, pyjson.Obj(pyjson.KV("action", "write")))
				tx.Append(RelMethodologyMD, []byte("\nwrite next\n"))
				_, err = tx.Commit(event("test", 2), testState)
				tx.Close()
			}
			requireNotRegular(t, err, rel)
			requireUntouched(t, v, string(data))

			out, err := l.Check(false, testNow, noStateCheck)
			require.Error(t, err, "check: %s", pyjson.Indent(out))
			fe := fault.AsError(err)
			assert.Equal(t, fault.KindCorrupt, fe.Kind)
			assert.Contains(t, fe.Msg, rel+": "+notOwnFile+"a symbolic link", "check names the link first")
			assert.Contains(t, fe.Hint, "--repair` leaves a workspace holding one as it is")

			_, err = l.Check(true, testNow, noStateCheck)
			require.Error(t, err, "repair refuses")
			fi, lerr := os.Lstat(l.Path(rel))
			require.NoError(t, lerr)
			assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the link is left where it is")
			requireUntouched(t, v, string(data))
			assert.NoDirExists(t, l.Path(RelBackupDir), "repair made no backup: it changed nothing")
		})
	}
}

// The workspace's own directories are not followed either: a linked
// ucs/state/ or knowledge folder takes no write elsewhere.
func TestLinkedDirectoryIsRefused(t *testing.T) {
	for _, rel := range []string{"ucs", RelStateDir, RelKnowledgeDir} {
		t.Run(rel, func(t *testing.T) {
			l := newTestWorkspace(t)
			elsewhere := filepath.Join(t.TempDir(), "elsewhere")
			require.NoError(t, os.Rename(l.Path(rel), elsewhere))
			require.NoError(t, os.Symlink(elsewhere, l.Path(rel)))
			before := workspacetest.Fingerprint(t, elsewhere)

			tx, err := l.Begin(true)
			if err == nil {
				tx.Append(RelMethodologyMD, []byte("\nread first\n"))
				_, err = tx.Commit(event("test", 1), testState)
				tx.Close()
			}
			requireNotRegular(t, err, rel)
			assert.Equal(t, before, workspacetest.Fingerprint(t, elsewhere), "nothing was written through the link")

			_, err = l.Check(false, testNow, noStateCheck)
			require.Error(t, err)
			assert.Contains(t, fault.AsError(err).Msg, rel+": "+notOwnFile+"a symbolic link")
		})
	}
}

// A named pipe where a data file belongs is refused at once: reading it
// would wait for a writer forever.
func TestNamedPipeIsRefused(t *testing.T) {
	l := newTestWorkspace(t)
	require.NoError(t, os.Remove(l.Path(RelPPHistory)))
	require.NoError(t, syscall.Mkfifo(l.Path(RelPPHistory), 0o600))
	tx, err := l.Begin(false)
	require.NoError(t, err)
	_, err = tx.List(RelPPHistory)
	tx.Close()
	requireNotRegular(t, err, RelPPHistory)
	_, err = l.Check(false, testNow, noStateCheck)
	require.Error(t, err)
	assert.Contains(t, fault.AsError(err).Msg, RelPPHistory+": "+notOwnFile+"neither a regular file nor a directory")
}

// A call cut short is no damage: check, holding the lock, reports it as a
// warning with nothing wrong, changes nothing, and judges the workspace as
// the rollback will leave it; the next transaction rolls it back.
func TestCheckAfterCutCall(t *testing.T) {
	for _, stage := range []string{"journal", "append ucs/state/action_log.jsonl", "append ucs/state/methodology.jsonl", "prev"} {
		t.Run(stage, func(t *testing.T) {
			l := newTestWorkspace(t)
			commit(t, l, map[string][]pyjson.Value{RelActionLog: {pyjson.Obj(pyjson.KV("action", "read"))}})
			tx, err := l.Begin(true)
			require.NoError(t, err)
			tx.Append(RelMethodologyMD, []byte("\nfetch whole pages\n"))
			tx.Add(RelActionLog, pyjson.Obj(pyjson.KV("action", "web_fetch")))
			tx.Add(RelMethodology, entry("fetch whole pages", "read"))
			require.True(t, CrashAt(stage, func() { tx.Commit(event("test", 2), testState) }))
			tx.Close()
			cut := workspacetest.Fingerprint(t, l.Root())

			out, err := l.Check(false, testNow, noStateCheck)
			require.NoError(t, err, "a cut call is not corruption")
			ok, _ := out.Get("ok")
			assert.True(t, ok.Bool())
			events, _ := out.Get("journal_events")
			assert.Equal(t, "2", string(pyjson.AppendCompact(nil, events)), "the cut event is not counted")
			warnings, _ := out.Get("warnings")
			assert.Contains(t, string(pyjson.AppendCompact(nil, warnings)), "a call was cut short (event 3, test, never committed)")
			assert.Equal(t, cut, workspacetest.Fingerprint(t, l.Root()), "check changed nothing")

			tx, err = l.Begin(false)
			require.NoError(t, err)
			assert.Contains(t, strings.Join(tx.Recovered(), "\n"), "rolled back event 3")
			tx.Close()
			checkOK(t, l)
		})
	}
}

// WritePrivate replaces a link at its target instead of writing through
// it, and leaves the file 0600 whatever the file it replaces was.
func TestWritePrivate(t *testing.T) {
	dir := t.TempDir()
	v := victim(t, "keep\n")
	link := filepath.Join(dir, "page.html")
	require.NoError(t, os.Symlink(v, link))
	require.NoError(t, WritePrivate(link, []byte("<html>")))
	requireUntouched(t, v, "keep\n")
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.True(t, fi.Mode().IsRegular(), "the link was replaced by the page")
	assert.Equal(t, FilePerm, fi.Mode().Perm())

	// A stream is written, not replaced: a named pipe, and a link to one,
	// stay what they are (exec --result-file /dev/null must not put a file
	// in place of /dev/null). A pipe stands in for the device here, so
	// that a regression cannot take /dev/null away from the machine.
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	reader, err := os.OpenFile(fifo, os.O_RDWR, 0) // a reader, so that opening to write does not wait
	require.NoError(t, err)
	defer reader.Close()
	toFifo := filepath.Join(dir, "to-fifo")
	require.NoError(t, os.Symlink(fifo, toFifo))
	for _, path := range []string{fifo, toFifo} {
		require.NoError(t, WritePrivate(path, []byte("<html>")))
		fi, err = os.Lstat(fifo)
		require.NoError(t, err)
		require.NotZero(t, fi.Mode()&os.ModeNamedPipe, "the pipe is still a pipe")
		fi, err = os.Lstat(toFifo)
		require.NoError(t, err)
		require.NotZero(t, fi.Mode()&os.ModeSymlink, "the link to it is still a link")
		got := make([]byte, 6)
		_, err = io.ReadFull(reader, got) // only once the pipe is known to be written
		require.NoError(t, err)
		assert.Equal(t, "<html>", string(got), "written into the pipe")
	}

	open := filepath.Join(dir, "open.html")
	require.NoError(t, os.WriteFile(open, []byte("old"), 0o644))
	require.NoError(t, os.Chmod(open, 0o644))
	require.NoError(t, WritePrivate(open, []byte("<html>")))
	fi, err = os.Stat(open)
	require.NoError(t, err)
	assert.Equal(t, FilePerm, fi.Mode().Perm(), "not the old file's mode")
}

// layoutRel accepts exactly the files a commit may append to.
func TestLayoutRel(t *testing.T) {
	for rel, want := range map[string]bool{
		RelJournal:                              true,
		RelActionLog:                            true,
		RelPinned:                               true,
		RelDeadEndsMD:                           true,
		"ucs/knowledge/synthesis/2026-11-21.md": true,
		"ucs/state/index-v1/methodology.jsonl":  true,
		"ucs/state/index-v1/methodology-cap-3.txt": true,
		"ucs/state/requests/12/ab12.json":          true,
		RelState:                                   false, // replaced, never appended
		RelLock:                                    false,
		"ucs/state/evil.jsonl":                     false,
		"ucs/knowledge/synthesis/../x.md":          false,
		"ucs/knowledge/synthesis/.x.md":            false,
		"ucs/knowledge/synthesis/a/b.md":           false,
		"ucs/state/index-v1/a/b":                   false,
		"ucs/state/requests/x/ab.json":             false,
		"ucs/state/requests/1/ab.txt":              false,
		"ucs/state/requests/1/2/ab.json":           false,
		"/etc/passwd":                              false,
		"manifest.json":                            false,
	} {
		assert.Equal(t, want, layoutRel(rel), rel)
	}
}

// A forced init moves a link in the state directory aside with the rest
// (a rename moves the link, not its target), and backups are not judged:
// the new workspace checks clean.
func TestForcedInitMovesLinkAside(t *testing.T) {
	l := newTestWorkspace(t)
	v := victim(t, "kept\n")
	require.NoError(t, os.Remove(l.Path(RelPPHistory)))
	require.NoError(t, os.Symlink(v, l.Path(RelPPHistory)))
	tx, err := l.Create(true, testNow)
	require.NoError(t, err)
	tx.Meta.Model, tx.Meta.AgentID = LegacyModel, "test"
	tx.Pin(torusfield.DefaultManifestJSON(), torusfield.DefaultManifest())
	tx.Add(RelPPHistory, pyjson.Obj(pyjson.KV("t", 0)))
	_, err = tx.Commit(event("init", 0), testState)
	require.NoError(t, err)
	tx.Close()
	requireUntouched(t, v, "kept\n")
	checkOK(t, l)
}

// FuzzLayoutRel: whatever a journal names, a name recovery accepts stays
// inside ucs/ of the workspace, in one of the directories a commit writes.
func FuzzLayoutRel(f *testing.F) {
	for _, s := range []string{RelJournal, "ucs/knowledge/synthesis/2026-11-21.md", "ucs/state/index-v1/x",
		"ucs/state/requests/1/a.json", "ucs/state/../../x", "/etc/passwd", "ucs/state/index-v1/../../../x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		if !layoutRel(rel) {
			return
		}
		clean := filepath.ToSlash(filepath.Clean(rel))
		assert.Equal(t, rel, clean, "no dot, dot-dot or doubled slash")
		dir := rel[:strings.LastIndexByte(rel, '/')]
		if strings.HasPrefix(dir, RelRequests+"/") {
			dir = RelRequests // a bucket
		}
		assert.Contains(t, []string{RelStateDir, RelKnowledgeDir, RelSynthesisDir, RelIndexDir, RelRequests}, dir, "in a directory of the layout")
	})
}

// A forced init over a linked knowledge folder makes nothing through it.
func TestForcedInitOverLinkedDirectory(t *testing.T) {
	l := newTestWorkspace(t)
	elsewhere := filepath.Join(t.TempDir(), "elsewhere")
	require.NoError(t, os.Mkdir(elsewhere, 0o700))
	require.NoError(t, os.RemoveAll(l.Path(RelKnowledgeDir)))
	require.NoError(t, os.Symlink(elsewhere, l.Path(RelKnowledgeDir)))
	_, err := l.Create(true, testNow)
	requireNotRegular(t, err, RelKnowledgeDir)
	entries, err := os.ReadDir(elsewhere)
	require.NoError(t, err)
	assert.Empty(t, entries, "no synthesis folder was made through the link")
}
