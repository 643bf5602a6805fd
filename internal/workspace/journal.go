package workspace

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// An Event is one line of the journal: one committed call. It is written in
// canonical JSON (sorted keys) and hash-chained: Parent is the previous
// event's Hash, and Hash is the SHA-256 of the event's canonical JSON
// without its hash member.
//
// Events carry the version of their format. Format 1 (ucs 0.1.0) has no
// "format", "model" or "agent_id" member; format 2 adds them, so a replay
// knows which learning model applied the event and for which agent. An
// event is never rewritten: a reader handles every format it may find.
type Event struct {
	Seq         int64
	Parent      string
	Op          string
	Args        pyjson.Value // the call's flags as recorded (init: force, manifest_sha256, ...)
	Input       pyjson.Value // the call's stdin object, canonical, or null
	Now         string       // the injected clock, RFC 3339
	TBefore     int64
	TAfter      int64
	StateBefore string
	StateAfter  string
	// Files maps each file the call appended to onto its length before the
	// call (-1: the call created it): what recovery cuts it back to.
	Files  pyjson.Value
	Format int    // the event format; 1 for events without the member
	Model  string // the learning model that applied the event; LegacyModel before format 2
	Agent  string // UCS_AGENT_ID of the caller; "" before format 2
	Hash   string

	raw pyjson.Value // the event as read: its hash covers members this version may not know
}

// Raw is the event as the journal holds it, members this version may not
// know included.
func (e *Event) Raw() pyjson.Value { return e.raw }

// EventFormat is the event format this version of ucs writes.
const EventFormat = 2

// value is the event as the journal stores it, without its hash.
func (e *Event) value() pyjson.Value {
	ms := []pyjson.Member{
		pyjson.KV("seq", e.Seq),
		pyjson.KV("parent", e.Parent),
		pyjson.KV("op", e.Op),
		pyjson.KV("args", e.Args),
		pyjson.KV("input", e.Input),
		pyjson.KV("now", e.Now),
		pyjson.KV("t_before", e.TBefore),
		pyjson.KV("t_after", e.TAfter),
		pyjson.KV("state_before", e.StateBefore),
		pyjson.KV("state_after", e.StateAfter),
		pyjson.KV("files", e.Files),
	}
	if e.Format >= 2 {
		ms = append(ms, pyjson.KV("format", e.Format), pyjson.KV("model", e.Model), pyjson.KV("agent_id", e.Agent))
	}
	return pyjson.ObjectValue(ms)
}

// seal computes the event's hash and returns its journal line (canonical
// JSON and a newline).
func (e *Event) seal() []byte {
	v := e.value()
	sum := sha256.Sum256(pyjson.Canonical(v))
	e.Hash = hex.EncodeToString(sum[:])
	e.raw = v.With("hash", e.Hash)
	return append(pyjson.AppendCanonical(nil, e.raw), '\n')
}

// parseEventValue reads an event of any known format from its decoded JSON.
// A big event's tail (see readJournalEnd) may lack members; they stay zero.
// An event of a format newer than this version's is refused.
func parseEventValue(v pyjson.Value) (Event, error) {
	if v.Kind() != pyjson.Object {
		return Event{}, errors.New("an event must be a JSON object")
	}
	e := Event{raw: v, Format: 1, Model: LegacyModel}
	e.Seq = intField(v, "seq")
	e.Parent = v.StrOf("parent")
	e.Op = v.StrOf("op")
	e.Args, _ = v.Get("args")
	e.Input, _ = v.Get("input")
	e.Now = v.StrOf("now")
	e.TBefore = intField(v, "t_before")
	e.TAfter = intField(v, "t_after")
	e.StateBefore = v.StrOf("state_before")
	e.StateAfter = v.StrOf("state_after")
	e.Files, _ = v.Get("files")
	e.Hash = v.StrOf("hash")
	if f, ok := v.Get("format"); ok {
		n, ok := f.Int()
		if !ok || n < 2 {
			return e, fmt.Errorf("event %d: format must be an integer of at least 2", e.Seq)
		}
		if n > EventFormat {
			return e, fault.Unsupported("event %d is in event format %d; this ucs reads formats 1 to %d", e.Seq, n, EventFormat)
		}
		e.Format = int(n)
		e.Model = v.StrOf("model")
		e.Agent = v.StrOf("agent_id")
	}
	return e, nil
}

// contentHash is the SHA-256 of the event's canonical JSON without its hash,
// over the members as read: what the event's Hash must be.
func (e *Event) contentHash() string { return eventHash(e.raw) }

// eventHash is the SHA-256 of an event's canonical JSON without its hash.
func eventHash(ev pyjson.Value) string {
	var ms []pyjson.Member
	for _, m := range ev.Members() {
		if m.Key != "hash" {
			ms = append(ms, m)
		}
	}
	sum := sha256.Sum256(pyjson.Canonical(pyjson.ObjectValue(ms)))
	return hex.EncodeToString(sum[:])
}

func intField(v pyjson.Value, key string) int64 {
	x, _ := v.Get(key)
	n, _ := x.Int()
	return n
}

// A ChainBreak is what is wrong with an event's place in the chain.
type ChainBreak struct {
	Field string // "seq", "parent" or "hash"
	What  string
}

// A Journal reads the journal from its start, one event at a time, and
// checks each event's link to the one before: its seq follows, its parent
// names the previous event's hash, and its hash is its content's. It is
// the one reader of the whole journal (check, verify and log use it).
type Journal struct {
	r        *bufio.Reader
	f        *os.File
	size     int64 // the file's length when opened
	line     int64 // the current event's line number, from 1
	read     int64 // bytes read so far
	prevHash string
	prevSeq  int64
	torn     bool // the journal ends with a line without a newline
	err      error
}

func newJournal(r io.Reader) *Journal {
	return &Journal{r: bufio.NewReaderSize(r, 1<<16)}
}

// Next returns the next event and what breaks its link, if anything. It
// returns ok false at the end of the journal (then Torn tells of a torn
// last line) or on a read or parse error (then Err is set; a parse error
// is a *LineError).
func (j *Journal) Next() (ev Event, breaks []ChainBreak, ok bool) {
	line, err := j.r.ReadBytes('\n')
	j.read += int64(len(line))
	if err == io.EOF {
		j.torn = len(line) > 0
		return ev, nil, false
	}
	if err != nil {
		j.err = err
		return ev, nil, false
	}
	j.line++
	v, err := pyjson.Parse(bytes.TrimSuffix(line, []byte("\n")))
	if err == nil {
		ev, err = parseEventValue(v)
	}
	if err != nil {
		j.err = &LineError{Line: j.line, Err: err}
		return ev, nil, false
	}
	if j.line > 1 && ev.Seq != j.prevSeq+1 {
		breaks = append(breaks, ChainBreak{"seq", fmt.Sprintf("is %d after %d: an event was removed or inserted", ev.Seq, j.prevSeq)})
	} else if j.line == 1 && ev.Seq != 1 {
		breaks = append(breaks, ChainBreak{"seq", fmt.Sprintf("is %d at line 1: an event was removed", ev.Seq)})
	}
	if j.line > 1 && ev.Parent != j.prevHash {
		breaks = append(breaks, ChainBreak{"parent", "does not name the previous event: the chain is broken"})
	}
	if ev.contentHash() != ev.Hash {
		breaks = append(breaks, ChainBreak{"hash", "does not match the event's content: the event was edited"})
	}
	j.prevHash, j.prevSeq = ev.Hash, ev.Seq
	return ev, breaks, true
}

// Line is the line number of the event Next returned last, from 1.
func (j *Journal) Line() int64 { return j.line }

// Read is how many bytes of the journal Next has read.
func (j *Journal) Read() int64 { return j.read }

// Size is the journal's length when it was opened.
func (j *Journal) Size() int64 { return j.size }

// Torn reports, once Next has returned false, whether the journal ends
// with a line without its newline: a write that was cut short.
func (j *Journal) Torn() bool { return j.torn }

// Err is what stopped Next early: a read error, or a *LineError for a line
// that is not an event.
func (j *Journal) Err() error { return j.err }

// Close closes the journal file.
func (j *Journal) Close() {
	if j.f != nil {
		j.f.Close()
	}
}

// A LineError is a journal line that is not an event.
type LineError struct {
	Line int64
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// OpenJournal opens the journal for a scan from its start; ok is false
// when there is none. The caller closes it.
func (l *Workspace) OpenJournal() (j *Journal, ok bool, err error) {
	f, err := openRead(l.path(RelJournal))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fault.Internal(err, "open %s", RelJournal)
	}
	j = newJournal(f)
	j.f = f
	if st, err := f.Stat(); err == nil {
		j.size = st.Size()
	}
	return j, true, nil
}

// JournalEnd returns the seq and hash of the journal's last event (0 and
// "" for a workspace without one). A store that mirrors the workspace
// compares them with its own to know whether the copy is current.
func (l *Workspace) JournalEnd() (seq int64, hash string, err error) {
	if !l.Exists(RelJournal) {
		return 0, "", nil
	}
	jt, err := readJournalTail(l)
	if err != nil {
		return 0, "", err
	}
	return jt.seq, jt.hash, nil
}
