package workspace

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Drain is one application of the pending queue (DrainPending): its
// Line applies each queued call and decides whether it leaves the queue,
// and it gathers what the answer of the call that applied them says
// (Notes). It may wait for the answer of one call, by its request_id:
// ucs exec's own observation, queued first and applied with the rest.
type Drain struct {
	// Await is the request_id of the call whose answer is waited for
	// ("": none).
	Await string
	// Answer is that call's answer once applied, and Applied says it was.
	Answer  pyjson.Value
	Applied bool
	// Err is why that call was dropped from the queue (the workspace
	// refuses it, or it is not a call): it will never apply, so it is
	// never answered as queued.
	Err error
	// Notes say what the drain dropped, for the answer.
	Notes []string
}

// Line applies one queued line, a call {"op", "args", "input"}, with do,
// and reports whether it stays queued, with those after it: do failed for
// a reason that may pass (busy, corrupt) or that is the operator's to fix
// (operator's true, as a policy file that cannot be used). A line that is
// not a call, or a call whose input the workspace refuses (bad input), is
// dropped, and Notes says so.
func (d *Drain) Line(line []byte, do func(op string, args, input pyjson.Value) (pyjson.Value, error), operators func(error) bool) (keep bool) {
	ours := d.Await != "" && bytes.Contains(line, []byte(strconv.Quote(d.Await)))
	v, err := pyjson.Parse(line)
	if err != nil || v.Kind() != pyjson.Object {
		d.Notes = append(d.Notes, "dropped a pending line that is not a call")
		if ours {
			d.Err = fault.Internal(errors.New("the queued call is not valid JSON"), "queue an observation")
		}
		return false
	}
	op, _ := v.Get("op")
	args, _ := v.Get("args")
	input, _ := v.Get("input")
	out, err := do(op.Str(), args, input)
	var fe *fault.Error
	switch {
	case err == nil:
		if id, _ := input.Get("request_id"); d.Await != "" && id.Kind() == pyjson.String && id.Str() == d.Await {
			d.Answer, d.Applied = out, true
		}
		return false
	case errors.As(err, &fe) && fe.Kind == fault.KindBadInput && !operators(err):
		d.Notes = append(d.Notes, "dropped a pending "+op.Str()+" the workspace refuses: "+fe.Msg)
		if ours {
			d.Err = err
		}
		return false
	}
	return true
}

// Done notes, first, how many calls the drain applied, n, and last the
// error that stopped it, as DrainPending returned them.
func (d *Drain) Done(n int, err error) {
	if n > 0 {
		d.Notes = append([]string{"applied " + strconv.Itoa(n) + " pending observation(s) first"}, d.Notes...)
	}
	if err != nil {
		d.Notes = append(d.Notes, "the pending queue: "+err.Error())
	}
}
