package bridge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
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
	if !b.ws.Exists(relState) {
		return pyjson.Value{}, fault.NotInitialized(b.ws.Root())
	}
	lock, err := b.ws.Lock(false)
	if err != nil {
		return pyjson.Value{}, err
	}
	defer lock.Unlock()
	scratchDir, err := os.MkdirTemp("", "ucs-verify-")
	if err != nil {
		return pyjson.Value{}, internal(err, "create scratch workspace")
	}
	defer os.RemoveAll(scratchDir)
	v := &verifier{src: b.ws, scratch: openWorkspace(filepath.Join(scratchDir, "ws"), b.opts), opts: opts}
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
		return pyjson.Value{}, &fault.Error{Kind: fault.KindCorrupt, Code: fault.CodeVerifyFailed,
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

// stateAt rebuilds the state file that event seq committed, and the book
// of observations it names, by replaying the history up to it on a
// scratch workspace (from the newest sound snapshot before it), for a
// repair that has no copy of them (workspace.StateReplay). It does not
// take the workspace's lock: the repair holds it. It returns a nil state
// when the history up to seq does not verify.
func (b *Bridge) stateAt(seq int64) ([]byte, []workspace.Replayed, error) {
	scratchDir, err := os.MkdirTemp("", "ucs-replay-")
	if err != nil {
		return nil, nil, internal(err, "create scratch workspace")
	}
	defer os.RemoveAll(scratchDir)
	v := &verifier{src: b.ws, scratch: openWorkspace(filepath.Join(scratchDir, "ws"), b.opts),
		opts: VerifyOptions{From: seq, Until: seq}}
	fail, err := v.run()
	if err != nil || fail != nil || v.stoppedAt != seq {
		return nil, nil, err
	}
	state, err := v.scratch.ReadFile(relState)
	if err != nil {
		return nil, nil, internal(err, "read the replayed state")
	}
	var beside []workspace.Replayed
	if m := gjson.GetBytes(state, observationsMember); m.Exists() {
		book, err := readBook(v.scratch.ReadFile, []byte(m.Raw))
		if err != nil {
			return nil, nil, nil
		}
		beside = append(beside, workspace.Replayed{Rel: workspace.RelObservations, Data: book})
	}
	return state, beside, nil
}

type verifier struct {
	src, scratch *workspace.Workspace
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
	j, ok, err := v.src.OpenJournal()
	if err != nil || !ok {
		return &verifyFailure{what: "the workspace has no journal"}, nil
	}
	defer j.Close()
	v.total = j.Size()
	if v.agent, err = v.src.RecordedAgent(); err != nil {
		return nil, err
	}
	startSeq, err := v.chooseStart()
	if err != nil {
		return nil, err
	}
	for {
		ev, breaks, ok := j.Next()
		if !ok {
			break
		}
		v.events++
		if len(breaks) > 0 {
			what := breaks[0].What
			if breaks[0].Field == "seq" {
				what = fmt.Sprintf("seq is %d at line %d: an event was removed or inserted", ev.Seq, j.Line())
			} else if breaks[0].Field == "parent" {
				what = "parent does not name the previous event: the chain is broken"
			} else {
				what = "hash does not match the event's content: the event was edited"
			}
			return &verifyFailure{seq: j.Line(), op: ev.Op, what: what}, nil
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
			v.opts.Progress(j.Read(), v.total)
		}
	}
	var le *workspace.LineError
	switch {
	case errors.As(j.Err(), &le):
		var ue *fault.Error
		if errors.As(le.Err, &ue) && ue.Kind == fault.KindUnsupported {
			return nil, ue
		}
		return &verifyFailure{seq: le.Line, what: "the event does not parse: " + le.Err.Error()}, nil
	case j.Err() != nil:
		return nil, internal(j.Err(), "read %s", relJournal)
	case j.Torn():
		return &verifyFailure{seq: j.Line() + 1, what: "torn last line (run `ucs check --repair`)"}, nil
	}
	return v.compareFinal()
}

// chooseStart prepares the scratch workspace: empty for a replay from
// init, or restored from the newest sound snapshot the options allow. It
// returns the seq replay starts after.
func (v *verifier) chooseStart() (int64, error) {
	first := v.src.FirstEvent()
	limit := int64(-1) // no snapshot
	switch {
	case v.opts.FromSnapshot:
		limit = 1 << 62
	case v.opts.From > 0:
		limit = v.opts.From - 1
	}
	if first.StrOf("op") == "adopt" && limit < 1 {
		limit = 1 // an adopted workspace's history starts at its snapshot
	}
	seqs := v.src.Snapshots()
	for i := len(seqs) - 1; i >= 0 && limit >= 0; i-- {
		if seqs[i] > limit {
			continue
		}
		if v.src.SoundSnapshot(seqs[i]) {
			// The scratch journal is the history up to the snapshot's event.
			if err := v.src.RestoreSnapshot(v.scratch, seqs[i]); err != nil {
				return 0, err
			}
			v.start = seqs[i]
			return seqs[i], nil
		}
	}
	if first.StrOf("op") == "adopt" {
		return 0, &fault.Error{Kind: fault.KindCorrupt, Code: fault.CodeVerifyFailed, Msg: "the snapshot of the adopted state is missing or damaged",
			Hint: "the history before adoption cannot be replayed without it"}
	}
	return 0, nil
}

// replay runs one event on the scratch workspace and compares. The event
// is applied as the version that wrote it did: in its workspace format,
// with its learning model and for its agent. An event this ucs cannot
// apply so stops the verification with an unsupported_version error,
// never a report of tampering.
func (v *verifier) replay(ev workspace.Event) (*verifyFailure, error) {
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
	// The scratch is thrown away: its commits need not be durable, and
	// without an fsync each a replay takes a third of the time.
	sb := New(Options{Workspace: v.scratch.Root(), Now: now, SnapshotEvery: -1, AgentID: agent, NoSync: true})
	sb.replaying = true
	args, input := ev.Args, ev.Input
	switch op {
	case "init":
		raw, err := v.src.ReadFile(relPinned)
		if err != nil {
			return &verifyFailure{seq: seq, op: op, what: "the pinned manifest is missing"}, nil
		}
		if sha256hex(raw) != args.StrOf("manifest_sha256") {
			return &verifyFailure{seq: seq, op: op, what: "the pinned manifest is not the one init recorded"}, nil
		}
		path := filepath.Join(filepath.Dir(v.scratch.Root()), "manifest.json")
		if err := os.WriteFile(path, raw, workspace.FilePerm); err != nil {
			return nil, internal(err, "write scratch manifest")
		}
		if ev.Format < 2 {
			sb.format = 1
		} else if a := args.StrOf("agent_id"); a != "" {
			sb.opts.AgentID = a
		}
		args = pyjson.Obj(pyjson.KV("force", false), pyjson.KV("manifest", path), pyjson.KV("model", ev.Model))
		if fp, _ := ev.Args.Get("fleet_prior"); fp.Bool() {
			args = args.With("fleet_prior", true) // the prior the input recorded
		}
	case "adopt":
		return &verifyFailure{seq: seq, op: op, what: "an adopt event can only start a history"}, nil
	case "migrate": // records the model it leaves the workspace on
	default:
		if m, err := v.scratch.StateMeta(); err == nil && m.Model != ev.Model {
			return &verifyFailure{seq: seq, op: op, what: fmt.Sprintf("it records the learning model %q, but the history before it left the workspace on %q", ev.Model, m.Model)}, nil
		}
	}
	if op == "check" {
		err = sb.commitRecord(Call{Op: op, Args: args, Input: input}) // a repair's record
	} else {
		_, err = sb.Do(Call{Op: op, Args: args, Input: input})
	}
	if err != nil {
		return &verifyFailure{seq: seq, op: op, what: "replaying it fails: " + err.Error()}, nil
	}
	last, ok, err := v.scratch.LastEvent()
	if err != nil || !ok || last.Seq != seq {
		return &verifyFailure{seq: seq, op: op, what: "replaying it wrote no event"}, nil
	}
	got := last.Raw()
	var diffs []pyjson.Value
	for _, k := range []string{"t_before", "t_after", "state_before", "state_after", "files"} {
		g, _ := got.Get(k)
		w, _ := ev.Raw().Get(k)
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
		for _, rel := range workspace.DataFiles() {
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
	got, err := v.scratch.ReadFile(relState)
	if err != nil {
		return nil, internal(err, "read the replayed state")
	}
	want, err := v.src.ReadFile(relState)
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
	for _, rel := range workspace.DataFiles() {
		g, _ := v.scratch.ReadFile(rel)
		w, _ := v.src.ReadFile(rel)
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
