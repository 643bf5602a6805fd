package bridge

import (
	"errors"

	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
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
		return fault.BadInput(fault.CodeUnknownCommand, "run `ucs --help` for the commands", "unknown command %q", c.Op)
	}
	c.Input = pyjson.SortKeys(c.Input)
	c, err := sp.validate(c, false)
	if err != nil {
		return err
	}
	line := pyjson.AppendDumps(nil, pyjson.Obj(pyjson.KV("op", c.Op), pyjson.KV("args", c.Args), pyjson.KV("input", c.Input)))
	return b.ws.QueuePending(line)
}

// applyPending applies the queued calls, oldest first (workspace.Drain),
// waiting for the answer of the call whose request_id is await (""
// none), and returns the drain: what the answer of the call that applied
// them should say. It stops at the first call the workspace cannot take
// now (busy, corrupt): that one and those after it stay queued.
func (b *Bridge) applyPending(await string) workspace.Drain {
	d := workspace.Drain{Await: await}
	if b.draining || b.replaying || !b.ws.HasPending() {
		return d
	}
	b.draining = true
	defer func() { b.draining = false }()
	do := func(op string, args, input pyjson.Value) (pyjson.Value, error) {
		return b.Do(Call{Op: op, Args: args, Input: input})
	}
	d.Done(b.ws.DrainPending(func(line []byte) bool { return d.Line(line, do, policy.IsFileError) }))
	return d
}
