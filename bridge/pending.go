package bridge

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// The pending queue (workspace.QueuePending) holds observations ucs exec
// made while the workspace could not take them. Every changing call
// applies them first, each as the call it is (a report with a
// request_id), journaled and exactly once: a queued call already applied
// returns its first answer, marked replayed, and is dropped.

// QueueCall appends a call to the workspace's pending queue, durably. The
// call must carry a request_id in its input.
func (b *Bridge) QueueCall(c Call) error {
	if id, err := contract.RequestID(c.Input); err != nil || id == "" {
		return fault.Internal(errors.New("a queued call needs a request_id"), "queue an observation")
	}
	// The queue holds the call as the journal will: checked, its secrets
	// redacted. A call refused now would be refused when applied.
	sp := Lookup(c.Op)
	if sp == nil {
		return badInput(fault.CodeUnknownCommand, "run `ucs --help` for the commands", "unknown command %q", c.Op)
	}
	c.Input = pyjson.SortKeys(c.Input)
	c, err := sp.validate(c, false)
	if err != nil {
		return err
	}
	line := pyjson.AppendDumps(nil, pyjson.Obj(pyjson.KV("op", c.Op), pyjson.KV("args", c.Args), pyjson.KV("input", c.Input)))
	return b.ws.QueuePending(line)
}

// applyPending applies the queued calls, oldest first, and returns what
// the answer of the call that applied them should say. It stops at the
// first call the workspace cannot take now (busy, corrupt): that one and
// those after it stay queued. A queued call that can never apply (its
// input is refused) is dropped, and said so.
func (b *Bridge) applyPending() []string {
	if b.draining || b.replaying || !b.ws.HasPending() {
		return nil
	}
	b.draining = true
	defer func() { b.draining = false }()
	var notes []string
	n, err := b.ws.DrainPending(func(line []byte) bool {
		// A line dropped is said so in the answer; when it is the call
		// Observe waits for, Observe fails with why, rather than answer
		// queued for what will never apply.
		ours := b.capture != "" && bytes.Contains(line, []byte(strconv.Quote(b.capture)))
		v, err := pyjson.Parse(line)
		if err != nil || v.Kind() != pyjson.Object {
			notes = append(notes, "dropped a pending line that is not a call")
			if ours {
				b.captureErr = fault.Internal(errors.New("the queued call is not valid JSON"), "queue an observation")
			}
			return false
		}
		op, _ := v.Get("op")
		args, _ := v.Get("args")
		input, _ := v.Get("input")
		out, err := b.Do(Call{Op: op.Str(), Args: args, Input: input})
		var fe *fault.Error
		switch {
		case err == nil:
			if id, _ := contract.RequestID(input); id != "" && id == b.capture {
				b.captured, b.didCapture = out, true
			}
			return false
		case errors.As(err, &fe) && fe.Kind == fault.KindBadInput && !policy.IsFileError(err):
			notes = append(notes, "dropped a pending "+op.Str()+" the workspace refuses: "+fe.Msg)
			if ours {
				b.captureErr = err
			}
			return false
		default:
			return true
		}
	})
	if n > 0 {
		notes = append([]string{"applied " + strconv.Itoa(n) + " pending observation(s) first"}, notes...)
	}
	if err != nil {
		notes = append(notes, "the pending queue: "+err.Error())
	}
	return notes
}
