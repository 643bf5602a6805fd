package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// Options choose where a verification starts and what it reports.
type Options struct {
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

// A Replayer runs recorded calls on a scratch workspace. The operations
// are the caller's: this package proves a history without knowing them.
type Replayer struct {
	// Open opens the scratch workspace at root, as the caller opens its own.
	Open func(root string) *workspace.Workspace
	// Models are the learning models the caller can apply events of.
	Models []string
	// Apply runs one step on the scratch workspace and commits its event.
	Apply func(scratch *workspace.Workspace, st Step) error
}

// A Step is one recorded event as replay applies it: as the version that
// wrote it did, in its workspace format, with its clock and for its agent.
type Step struct {
	Op          string
	Args, Input pyjson.Value
	Now         time.Time
	Agent       string
	// Format is the format an init writes (0: the current one).
	Format int
	// Record is set for a repair's record (op check): the state is
	// committed unchanged, no operation runs.
	Record bool
}

// A failure is the first event that does not hold.
type failure struct {
	seq   int64
	op    string
	what  string
	diffs []pyjson.Value
}

// Verify proves src's history: every event of the journal links to the
// one before (seq, parent, hash), and replaying the events on a scratch
// copy — same manifest, same inputs, same clock values — reproduces every
// event's state_after, ending in exactly the workspace's current state.
// It reads the journal as a stream. The first event that does not hold is
// reported as an *fault.Error of kind corrupt, naming it.
func Verify(src *workspace.Workspace, r Replayer, opts Options) (pyjson.Value, error) {
	if !src.Exists(workspace.RelState) {
		return pyjson.Value{}, fault.NotInitialized(src.Root())
	}
	lock, err := src.Lock(false)
	if err != nil {
		return pyjson.Value{}, err
	}
	defer lock.Unlock()
	scratchDir, err := os.MkdirTemp("", "ucs-verify-")
	if err != nil {
		return pyjson.Value{}, fault.Internal(err, "create scratch workspace")
	}
	defer os.RemoveAll(scratchDir)
	v := &verifier{src: src, scratch: r.Open(filepath.Join(scratchDir, "ws")), r: r, opts: opts}
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

// StateAt rebuilds the state file that event seq committed by replaying
// the history up to it on a scratch workspace (from the newest sound
// snapshot before it), for a repair that has no copy of it
// (workspace.StateReplay). beside picks the files the state names from
// the scratch workspace; ok false drops the state. It does not take src's
// lock: the repair holds it. It returns a nil state when the history up
// to seq does not verify.
func StateAt(src *workspace.Workspace, r Replayer, seq int64,
	beside func(state []byte, read func(rel string) ([]byte, error)) (files []workspace.Replayed, ok bool)) ([]byte, []workspace.Replayed, error) {
	scratchDir, err := os.MkdirTemp("", "ucs-replay-")
	if err != nil {
		return nil, nil, fault.Internal(err, "create scratch workspace")
	}
	defer os.RemoveAll(scratchDir)
	v := &verifier{src: src, scratch: r.Open(filepath.Join(scratchDir, "ws")), r: r, opts: Options{From: seq, Until: seq}}
	fail, err := v.run()
	if err != nil || fail != nil || v.stoppedAt != seq {
		return nil, nil, err
	}
	state, err := v.scratch.ReadFile(workspace.RelState)
	if err != nil {
		return nil, nil, fault.Internal(err, "read the replayed state")
	}
	files, ok := beside(state, v.scratch.ReadFile)
	if !ok {
		return nil, nil, nil
	}
	return state, files, nil
}

type verifier struct {
	src, scratch *workspace.Workspace
	r            Replayer
	opts         Options
	events       int64 // events in the journal
	verified     int64 // events whose chain and replay were checked
	start        int64 // the seq replay started after (0: from init)
	finalHash    string
	total        int64
	stoppedAt    int64 // the event Until stopped at, if it did
	lastOp       string
	agent        string // the workspace's agent id, for events that did not record theirs
}

func (v *verifier) run() (*failure, error) {
	j, ok, err := v.src.OpenJournal()
	if err != nil || !ok {
		return &failure{what: "the workspace has no journal"}, nil
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
			return &failure{seq: j.Line(), op: ev.Op, what: what}, nil
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
		return &failure{seq: le.Line, what: "the event does not parse: " + le.Err.Error()}, nil
	case j.Err() != nil:
		return nil, fault.Internal(j.Err(), "read %s", workspace.RelJournal)
	case j.Torn():
		return &failure{seq: j.Line() + 1, what: "torn last line (run `ucs check --repair`)"}, nil
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
func (v *verifier) replay(ev workspace.Event) (*failure, error) {
	seq, op := ev.Seq, ev.Op
	now, err := time.Parse(time.RFC3339Nano, ev.Now)
	if err != nil {
		return &failure{seq: seq, op: op, what: "its clock value does not parse"}, nil
	}
	if !slices.Contains(v.r.Models, ev.Model) {
		return nil, fault.Unsupported("event %d (%s) was applied by the learning model %q; this ucs knows %s", seq, op, ev.Model, strings.Join(v.r.Models, ", "))
	}
	st := Step{Op: op, Args: ev.Args, Input: ev.Input, Now: now.UTC(), Agent: ev.Agent, Record: op == "check"}
	if ev.Format < 2 {
		st.Agent = v.agent
	}
	switch op {
	case "init":
		if fail, err := v.prepareInit(ev, &st); fail != nil || err != nil {
			return fail, err
		}
	case "adopt":
		return &failure{seq: seq, op: op, what: "an adopt event can only start a history"}, nil
	case "migrate": // records the model it leaves the workspace on
	default:
		if m, err := v.scratch.StateMeta(); err == nil && m.Model != ev.Model {
			return &failure{seq: seq, op: op, what: fmt.Sprintf("it records the learning model %q, but the history before it left the workspace on %q", ev.Model, m.Model)}, nil
		}
	}
	if err := v.r.Apply(v.scratch, st); err != nil {
		return &failure{seq: seq, op: op, what: "replaying it fails: " + err.Error()}, nil
	}
	last, ok, err := v.scratch.LastEvent()
	if err != nil || !ok || last.Seq != seq {
		return &failure{seq: seq, op: op, what: "replaying it wrote no event"}, nil
	}
	if diffs := eventDiff(last.Raw(), ev.Raw()); len(diffs) > 0 {
		return &failure{seq: seq, op: op, what: "replaying it does not reproduce the recorded state", diffs: diffs}, nil
	}
	return nil, nil
}

// prepareInit checks that the pinned manifest is the one init recorded
// and has init read it from beside the scratch workspace, in the format
// and for the agent the event recorded.
func (v *verifier) prepareInit(ev workspace.Event, st *Step) (*failure, error) {
	raw, err := v.src.ReadFile(workspace.RelPinned)
	if err != nil {
		return &failure{seq: ev.Seq, op: ev.Op, what: "the pinned manifest is missing"}, nil
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != ev.Args.StrOf("manifest_sha256") {
		return &failure{seq: ev.Seq, op: ev.Op, what: "the pinned manifest is not the one init recorded"}, nil
	}
	path := filepath.Join(filepath.Dir(v.scratch.Root()), "manifest.json")
	if err := os.WriteFile(path, raw, workspace.FilePerm); err != nil {
		return nil, fault.Internal(err, "write scratch manifest")
	}
	if ev.Format < 2 {
		st.Format = 1
	} else if a := ev.Args.StrOf("agent_id"); a != "" {
		st.Agent = a
	}
	st.Args = pyjson.Obj(pyjson.KV("force", false), pyjson.KV("manifest", path), pyjson.KV("model", ev.Model))
	if fp, _ := ev.Args.Get("fleet_prior"); fp.Bool() {
		st.Args = st.Args.With("fleet_prior", true) // the prior the input recorded
	}
	return nil, nil
}

// compareFinal checks that the replayed state is the workspace's state,
// byte for byte, data files included.
func (v *verifier) compareFinal() (*failure, error) {
	got, err := v.scratch.ReadFile(workspace.RelState)
	if err != nil {
		return nil, fault.Internal(err, "read the replayed state")
	}
	want, err := v.src.ReadFile(workspace.RelState)
	if err != nil {
		return nil, fault.Internal(err, "read %s", workspace.RelState)
	}
	sum := sha256.Sum256(want)
	v.finalHash = hex.EncodeToString(sum[:])
	if !bytes.Equal(got, want) {
		fail := &failure{seq: v.events, op: v.lastOp, what: workspace.RelState + " is not the state the history produces: it was changed outside ucs"}
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
			return &failure{seq: v.events, op: v.lastOp, what: rel + " is not what the history produces: it was changed outside ucs"}, nil
		}
	}
	return nil, nil
}
