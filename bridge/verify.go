package bridge

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// VerifyOptions choose where a verification starts and what it reports.
type VerifyOptions struct {
	// From is the first event to replay; 0 replays from the beginning. The
	// state before it comes from the newest sound snapshot at or before it.
	From int64
	// FromSnapshot starts from the newest sound snapshot.
	FromSnapshot bool
	// Until stops after replaying event Until and reports how it compares
	// (0: verify the whole journal).
	Until int64
	// Progress, when set, is told every 1,000 events how far replay is.
	Progress func(done, total int64)
}

// A verifyFailure is the first event that does not hold.
type verifyFailure struct {
	seq   int64
	op    string
	what  string
	diffs []pyjson.Value
}

// Verify proves the workspace's history: every event of the journal links
// to the one before (seq, parent, hash), and replaying the events on a
// scratch copy — same manifest, same inputs, same clock values — reproduces
// every event's state_after, ending in exactly the workspace's current
// state. It reads the journal as a stream. The first event that does not
// hold is reported as an *Error of kind corrupt, naming it.
func (b *Bridge) Verify(opts VerifyOptions) (pyjson.Value, error) {
	l := b.l
	if !exists(l, relState) {
		return pyjson.Value{}, errNotInitialized
	}
	lock, err := lockWorkspace(l.path(relLock), false, b.opts.LockTimeout)
	if err != nil {
		return pyjson.Value{}, err
	}
	defer lock.unlock()
	scratchDir, err := os.MkdirTemp("", "ucs-verify-")
	if err != nil {
		return pyjson.Value{}, internal(err, "create scratch workspace")
	}
	defer os.RemoveAll(scratchDir)
	v := &verifier{src: l, scratch: layout{root: filepath.Join(scratchDir, "ws")}, opts: opts}
	fail, err := v.run()
	if err != nil {
		return pyjson.Value{}, err
	}
	if fail != nil {
		details := []pyjson.Member{pyjson.KV("verified", v.verified), pyjson.KV("event", fail.seq), pyjson.KV("op", fail.op),
			pyjson.KV("problem", fail.what)}
		if len(fail.diffs) > 0 {
			details = append(details, pyjson.KV("diff", fail.diffs))
		}
		return pyjson.Value{}, &Error{Kind: KindCorrupt, Code: "verify_failed",
			Msg:     fmt.Sprintf("event %d (%s) does not verify: %s", fail.seq, fail.op, fail.what),
			Hint:    "the history or the state was changed outside ucs; restore the workspace from a backup, or run `ucs check`",
			Details: details}
	}
	if v.stoppedAt > 0 {
		return pyjson.Obj(
			pyjson.KV("verified", v.verified),
			pyjson.KV("event", v.stoppedAt),
			pyjson.KV("reproduced", true),
			pyjson.KV("diff", pyjson.ArrayValue(nil)),
		), nil
	}
	return pyjson.Obj(
		pyjson.KV("verified", v.verified),
		pyjson.KV("events", v.events),
		pyjson.KV("replayed_from", v.start),
		pyjson.KV("state_sha256", v.finalHash),
	), nil
}

type verifier struct {
	src, scratch layout
	opts         VerifyOptions
	events       int64 // events in the journal
	verified     int64 // events whose chain and replay were checked
	start        int64 // the seq replay started after (0: from init)
	finalHash    string
	total        int64
	stoppedAt    int64 // the event Until stopped at, if it did
	lastOp       string
	agent        string // the workspace's agent id, for events that did not record theirs
}

func (v *verifier) run() (*verifyFailure, error) {
	f, err := openRead(v.src.path(relJournal))
	if err != nil {
		return &verifyFailure{what: "the workspace has no journal"}, nil
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil {
		v.total = st.Size()
	}
	if v.agent, err = workspaceAgent(v.src); err != nil {
		return nil, err
	}
	startSeq, err := v.chooseStart()
	if err != nil {
		return nil, err
	}
	j := newJournalScanner(f)
	for {
		ev, breaks, ok := j.next()
		if !ok {
			break
		}
		v.events++
		if len(breaks) > 0 {
			what := breaks[0].what
			if breaks[0].field == "seq" {
				what = fmt.Sprintf("seq is %d at line %d: an event was removed or inserted", ev.Seq, j.line)
			} else if breaks[0].field == "parent" {
				what = "parent does not name the previous event: the chain is broken"
			} else {
				what = "hash does not match the event's content: the event was edited"
			}
			return &verifyFailure{seq: j.line, op: ev.Op, what: what}, nil
		}
		v.lastOp = ev.Op
		if ev.Seq <= startSeq {
			v.verified++
			continue // before the snapshot replay starts from: chain checked only
		}
		fail, err := v.replay(ev)
		if fail != nil || err != nil {
			return fail, err
		}
		v.verified++
		if v.opts.Until > 0 && ev.Seq == v.opts.Until {
			v.stoppedAt = ev.Seq
			return nil, nil
		}
		if v.opts.Progress != nil && v.verified%1000 == 0 {
			v.opts.Progress(j.read, v.total)
		}
	}
	var le *lineError
	switch {
	case errors.As(j.err, &le):
		var ue *Error
		if errors.As(le.err, &ue) && ue.Kind == KindUnsupported {
			return nil, ue
		}
		return &verifyFailure{seq: le.line, what: "the event does not parse: " + le.err.Error()}, nil
	case j.err != nil:
		return nil, internal(j.err, "read %s", relJournal)
	case j.torn:
		return &verifyFailure{seq: j.line + 1, what: "torn last line (run `ucs check --repair`)"}, nil
	}
	return v.compareFinal()
}

// workspaceAgent is the agent id the workspace's state records: the one
// its init was given. Events of format 1 did not record it, so their
// replay takes it from here.
func workspaceAgent(l layout) (string, error) {
	data, err := readFile(l.path(relState))
	if err != nil {
		return "", internal(err, "read %s", relState)
	}
	if mv, ok := torusfield.LeadMember(data, "ucs"); ok {
		return gjson.GetBytes(mv, "agent_id").Str, nil
	}
	return "", nil
}

// chooseStart prepares the scratch workspace: empty for a replay from
// init, or restored from the newest sound snapshot the options allow. It
// returns the seq replay starts after.
func (v *verifier) chooseStart() (int64, error) {
	first, err := firstEvent(v.src)
	if err != nil {
		return 0, err
	}
	limit := int64(-1) // no snapshot
	switch {
	case v.opts.FromSnapshot:
		limit = 1 << 62
	case v.opts.From > 0:
		limit = v.opts.From - 1
	}
	if strField(first, "op") == "adopt" && limit < 1 {
		limit = 1 // an adopted workspace's history starts at its snapshot
	}
	seqs := snapshotSeqs(v.src)
	for i := len(seqs) - 1; i >= 0 && limit >= 0; i-- {
		if seqs[i] > limit {
			continue
		}
		if v.soundSnapshot(seqs[i]) {
			if err := restoreSnapshot(v.src, v.scratch, seqs[i]); err != nil {
				return 0, err
			}
			// The scratch journal is the history up to the snapshot's
			// event, so the replayed events link to it, and an operation
			// that reads the history (a model migration) reads all of it.
			prefix, err := journalPrefix(v.src, seqs[i])
			if err != nil {
				return 0, err
			}
			if err := os.WriteFile(v.scratch.path(relJournal), prefix, 0o600); err != nil {
				return 0, internal(err, "write scratch journal")
			}
			v.start = seqs[i]
			return seqs[i], nil
		}
	}
	if strField(first, "op") == "adopt" {
		return 0, &Error{Kind: KindCorrupt, Code: "verify_failed", Msg: "the snapshot of the adopted state is missing or damaged",
			Hint: "the history before adoption cannot be replayed without it"}
	}
	return 0, nil
}

func firstEvent(l layout) (pyjson.Value, error) {
	f, err := openRead(l.path(relJournal))
	if err != nil {
		return pyjson.NullValue(), nil
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 1<<16).ReadBytes('\n')
	if err != nil {
		return pyjson.NullValue(), nil
	}
	ev, _ := pyjson.Parse(bytes.TrimSpace(line))
	return ev, nil
}

// soundSnapshot checks a snapshot against the journal: its state file's
// hash is the event's state_after, and each data file matches the summary
// in that state file.
func (v *verifier) soundSnapshot(seq int64) bool {
	dir := v.src.path(relSnapshots + "/" + fmt.Sprint(seq))
	data, err := readFile(filepath.Join(dir, filepath.Base(relState)))
	if err != nil {
		return false
	}
	ev, err := eventAt(v.src, seq)
	if err != nil || sha256hex(data) != strField(ev, "state_after") {
		return false
	}
	m, ours, err := metaOf(data)
	if err != nil || !ours {
		return false
	}
	for _, rel := range countedFiles {
		sum, err := sumFile(layout{root: dir}, filepath.Base(rel))
		if err != nil || sum != m.Files[rel] {
			return false
		}
	}
	return true
}

// eventAt finds event seq by scanning the journal.
func eventAt(l layout, seq int64) (pyjson.Value, error) {
	f, err := openRead(l.path(relJournal))
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

// replay runs one event on the scratch workspace and compares. The event
// is applied as the version that wrote it did: in its workspace format,
// with its learning model and for its agent. An event this ucs cannot
// apply so stops the verification with an unsupported_version error,
// never a report of tampering.
func (v *verifier) replay(ev Event) (*verifyFailure, error) {
	seq, op := ev.Seq, ev.Op
	now, err := ParseNow(ev.Now)
	if err != nil {
		return &verifyFailure{seq: seq, op: op, what: "its clock value does not parse"}, nil
	}
	if lookupModel(ev.Model) == nil {
		return nil, unsupported("event %d (%s) was applied by the learning model %q; this ucs knows %s", seq, op, ev.Model, modelNames())
	}
	agent := ev.Agent
	if ev.Format < 2 {
		agent = v.agent
	}
	sb := New(Options{Workspace: v.scratch.root, Now: now, SnapshotEvery: -1, AgentID: agent})
	sb.replaying = true
	args, input := ev.Args, ev.Input
	switch op {
	case "init":
		raw, err := readFile(v.src.path(relPinned))
		if err != nil {
			return &verifyFailure{seq: seq, op: op, what: "the pinned manifest is missing"}, nil
		}
		if sha256hex(raw) != strField(args, "manifest_sha256") {
			return &verifyFailure{seq: seq, op: op, what: "the pinned manifest is not the one init recorded"}, nil
		}
		path := filepath.Join(filepath.Dir(v.scratch.root), "manifest.json")
		if err := os.WriteFile(path, raw, 0o600); err != nil {
			return nil, internal(err, "write scratch manifest")
		}
		if ev.Format < 2 {
			sb.format = 1
		} else if a := strField(args, "agent_id"); a != "" {
			sb.opts.AgentID = a
		}
		args = pyjson.Obj(pyjson.KV("force", false), pyjson.KV("manifest", path), pyjson.KV("model", ev.Model))
	case "adopt":
		return &verifyFailure{seq: seq, op: op, what: "an adopt event can only start a history"}, nil
	case "migrate": // records the model it leaves the workspace on
	default:
		if m, err := stateMeta(v.scratch); err == nil && m.Model != ev.Model {
			return &verifyFailure{seq: seq, op: op, what: fmt.Sprintf("it records the learning model %q, but the history before it left the workspace on %q", ev.Model, m.Model)}, nil
		}
	}
	if _, err := sb.Do(Call{Op: op, Args: args, Input: input}); err != nil {
		return &verifyFailure{seq: seq, op: op, what: "replaying it fails: " + err.Error()}, nil
	}
	jt, err := readJournalTail(v.scratch)
	if err != nil || jt.seq != seq {
		return &verifyFailure{seq: seq, op: op, what: "replaying it wrote no event"}, nil
	}
	got := jt.event
	var diffs []pyjson.Value
	for _, k := range []string{"t_before", "t_after", "state_before", "state_after", "files"} {
		g, _ := got.Get(k)
		w, _ := ev.raw.Get(k)
		if k == "files" { // Markdown is for people and not hashed: compare the data files
			g, w = hashedFiles(g), hashedFiles(w)
		}
		if string(pyjson.Canonical(g)) != string(pyjson.Canonical(w)) {
			diffs = append(diffs, pyjson.Obj(pyjson.KV("field", k), pyjson.KV("replayed", g), pyjson.KV("recorded", w)))
		}
	}
	if len(diffs) > 0 {
		return &verifyFailure{seq: seq, op: op, what: "replaying it does not reproduce the recorded state", diffs: diffs}, nil
	}
	return nil, nil
}

// hashedFiles keeps the data files of an event's files member.
func hashedFiles(files pyjson.Value) pyjson.Value {
	var ms []pyjson.Member
	for _, m := range files.Members() {
		for _, rel := range countedFiles {
			if m.Key == rel {
				ms = append(ms, m)
			}
		}
	}
	return pyjson.ObjectValue(ms)
}

// compareFinal checks that the replayed state is the workspace's state,
// byte for byte, data files included.
func (v *verifier) compareFinal() (*verifyFailure, error) {
	got, err := readFile(v.scratch.path(relState))
	if err != nil {
		return nil, internal(err, "read the replayed state")
	}
	want, err := readFile(v.src.path(relState))
	if err != nil {
		return nil, internal(err, "read %s", relState)
	}
	v.finalHash = sha256hex(want)
	if !bytes.Equal(got, want) {
		fail := &verifyFailure{seq: v.events, op: v.lastOp, what: relState + " is not the state the history produces: it was changed outside ucs"}
		gv, gerr := pyjson.Parse(got)
		wv, werr := pyjson.Parse(want)
		if gerr == nil && werr == nil {
			fail.diffs = stateDiff(wv, gv)
		}
		return fail, nil
	}
	for _, rel := range countedFiles {
		g, _ := readFile(v.scratch.path(rel))
		w, _ := readFile(v.src.path(rel))
		if !bytes.Equal(g, w) {
			return &verifyFailure{seq: v.events, op: v.lastOp, what: rel + " is not what the history produces: it was changed outside ucs"}, nil
		}
	}
	return nil, nil
}

// stateDiff lists the top-level members of two state files that differ,
// and within the engine state the fields, so a person sees where.
func stateDiff(workspace, replayed pyjson.Value) []pyjson.Value {
	var out []pyjson.Value
	var walk func(path string, w, r pyjson.Value, depth int)
	walk = func(path string, w, r pyjson.Value, depth int) {
		if string(pyjson.Canonical(w)) == string(pyjson.Canonical(r)) {
			return
		}
		if depth == 0 || w.Kind() != pyjson.Object || r.Kind() != pyjson.Object {
			out = append(out, pyjson.Obj(pyjson.KV("field", path)))
			return
		}
		for _, m := range w.Members() {
			rv, _ := r.Get(m.Key)
			walk(joinPath(path, m.Key), m.Value, rv, depth-1)
		}
	}
	walk("", workspace, replayed, 3)
	return out
}

func joinPath(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

func sha256hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// journalPrefix returns the journal's bytes up to and including event seq.
func journalPrefix(l layout, seq int64) ([]byte, error) {
	data, err := readFile(l.path(relJournal))
	if err != nil {
		return nil, internal(err, "read %s", relJournal)
	}
	j := newJournalScanner(bytes.NewReader(data))
	for {
		ev, _, ok := j.next()
		if !ok {
			return nil, internal(fmt.Errorf("no event %d", seq), "read %s", relJournal)
		}
		if ev.Seq == seq {
			return data[:j.read], nil
		}
	}
}
