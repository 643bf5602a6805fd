package history

import (
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// A Report is what an earlier report taught: its transition, context,
// verdict and evidence weight.
type Report struct {
	Seq                    int64
	From, Action, Success  string
	Context, After, GoalID string
	Weight                 float64
	// Line is the report's action-log line.
	Line pyjson.Value
}

// ReadReport reads the report event seq of a journal of last events and
// the action-log line it wrote. An event that is no report, wrote no line,
// or reported an action that is no capability (so taught nothing) is bad
// input; a journal or log that cannot be read is corrupt.
func ReadReport(ws *workspace.Workspace, seq, last int64, isCapability func(string) bool) (Report, error) {
	notReport := func(what string) error {
		return fault.BadInput(fault.CodeNotAReport, "name a report: ucs log --op report lists them with their seq",
			"event %d %s", seq, what)
	}
	if seq < 1 || seq > last {
		return Report{}, notReport("does not exist (the journal has " + strconv.FormatInt(last, 10) + " events)")
	}
	ev, err := ws.EventAt(seq)
	if err != nil {
		return Report{}, fault.Corrupt(err, workspace.RelJournal)
	}
	if op := ev.StrOf("op"); op != "report" {
		return Report{}, notReport("is a " + pyjson.Quote(op) + ", not a report")
	}
	files, _ := ev.Get("files")
	off, ok := files.Get(workspace.RelActionLog)
	n, _ := off.Int()
	if !ok {
		return Report{}, notReport("wrote no action")
	}
	raw, err := ws.LineAt(workspace.RelActionLog, max(n, 0))
	if err != nil {
		return Report{}, fault.Corrupt(err, workspace.RelActionLog)
	}
	line, err := pyjson.Parse(raw)
	if err != nil {
		return Report{}, fault.Corrupt(err, workspace.RelActionLog)
	}
	input, _ := ev.Get("input")
	r := Report{Seq: seq, Line: line, From: line.StrOf("cursor_before"), Action: line.StrOf("action"),
		Success: line.StrOf("success"), Context: input.StrOf("context"), After: line.StrOf("after"),
		GoalID: line.StrOf("goal_id"), Weight: 1}
	if w, ok := line.Get("evidence_weight"); ok {
		r.Weight, _ = w.Float()
	}
	if !isCapability(r.Action) {
		return Report{}, notReport("reported " + pyjson.Quote(r.Action) + ", which is no capability: nothing was learned")
	}
	return r, nil
}
