package workspace

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// What a verification (package bridge's verify, which replays the journal
// on a scratch workspace) reads of a workspace's history besides the
// Journal: events by their position, and the snapshots it may start from.

// SoundSnapshot checks snapshot seq against the journal: its state file's
// hash is event seq's state_after, and each data file matches the summary
// in that state file.
func (l *Workspace) SoundSnapshot(seq int64) bool {
	dir := l.path(RelSnapshots + "/" + strconv.FormatInt(seq, 10))
	data, err := readFile(filepath.Join(dir, filepath.Base(RelState)))
	if err != nil {
		return false
	}
	ev, err := l.EventAt(seq)
	if err != nil || sha256hex(data) != ev.StrOf("state_after") {
		return false
	}
	m, ours, err := l.metaOf(data)
	if err != nil || !ours {
		return false
	}
	for _, rel := range countedFiles {
		sum, err := sumFile(&Workspace{root: dir}, filepath.Base(rel))
		if err != nil || sum != m.Files[rel] {
			return false
		}
	}
	return true
}

// RestoreSnapshot copies snapshot seq into a scratch workspace, whose
// journal then holds the history up to event seq: the events replayed
// after it link to it, and an operation that reads the history (a
// learning-model migration) reads all of it, as it did when it ran.
func (l *Workspace) RestoreSnapshot(to *Workspace, seq int64) error {
	if err := restoreSnapshot(l, to, seq); err != nil {
		return err
	}
	data, err := readFile(l.path(RelJournal))
	if err != nil {
		return fault.Internal(err, "read %s", RelJournal)
	}
	end := 0
	for n := int64(0); n < seq; n++ {
		i := bytes.IndexByte(data[end:], '\n')
		if i < 0 {
			return fault.Internal(errors.New("no such event"), "read event %d", seq)
		}
		end += i + 1
	}
	if err := os.WriteFile(to.path(RelJournal), data[:end], FilePerm); err != nil {
		return fault.Internal(err, "write scratch journal")
	}
	return nil
}

// FirstEvent is the journal's first event as it stands, or null when there
// is none or it does not parse (the scan reports that).
func (l *Workspace) FirstEvent() pyjson.Value {
	f, err := openRead(l.path(RelJournal))
	if err != nil {
		return pyjson.NullValue()
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 1<<16).ReadBytes('\n')
	if err != nil {
		return pyjson.NullValue()
	}
	ev, _ := pyjson.Parse(bytes.TrimSpace(line))
	return ev
}

// EventAt is the journal's seq-th event (its line seq), as it stands.
func (l *Workspace) EventAt(seq int64) (pyjson.Value, error) {
	f, err := openRead(l.path(RelJournal))
	if err != nil {
		return pyjson.Value{}, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	for n := int64(1); ; n++ {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return pyjson.Value{}, errors.New("no such event")
		}
		if n == seq {
			return pyjson.Parse(bytes.TrimSpace(line))
		}
	}
}

// LineAt reads the line of a data file that starts at a byte offset (an
// event's files member records where its lines begin).
func (l *Workspace) LineAt(rel string, offset int64) ([]byte, error) {
	f, err := openRead(l.path(rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(max(offset, 0), io.SeekStart); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil {
		return nil, errors.New("no whole line at that offset")
	}
	return bytes.TrimSuffix(line, []byte("\n")), nil
}
