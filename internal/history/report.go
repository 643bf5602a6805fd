package history

import (
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
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
	// Retracted says an amendment took the report's outcome back, so what
	// it teaches next replaces it.
	Retracted bool
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

// Correct is the capability and verdict an amendment of r gives: action
// and success where given (not ""), else r's. A capability that m, the
// manifest pinned at pinned, lacks is bad input, and so is a correction
// that changes nothing.
func (r Report) Correct(m *torusfield.Manifest, pinned, action, success string) (string, string, error) {
	if action == "" {
		action = r.Action
	} else if !m.Has(action) {
		return "", "", fault.BadInput(fault.CodeUnknownCapability, m.UnknownHint(action, pinned), "%s is not a capability", pyjson.Quote(action))
	}
	if success == "" {
		success = r.Success
	}
	if action == r.Action && success == r.Success {
		return "", "", fault.BadInput(fault.CodeInvalidValue, "give a verdict or capability that differs from the report's", "the correction changes nothing")
	}
	return action, success, nil
}

// Rated is rate's answer: r rated success by by, and what the rating
// taught (learned).
func (r Report) Rated(success, by string, learned pyjson.Value) pyjson.Value {
	return pyjson.Obj(pyjson.KV("status", "rated"), pyjson.KV("seq", r.Seq), pyjson.KV("action", r.Action),
		pyjson.KV("reported", r.Success), pyjson.KV("rated", success), pyjson.KV("by", by),
		pyjson.KV("learning", learned))
}

// Amended is amend's answer: r corrected to action and success by by,
// what of its outcome was taken back (retracted) and what the correction
// taught (learned).
func (r Report) Amended(action, success, by string, retracted, learned pyjson.Value) pyjson.Value {
	return pyjson.Obj(pyjson.KV("status", "amended"), pyjson.KV("seq", r.Seq),
		pyjson.KV("original", pyjson.Obj(pyjson.KV("action", r.Action), pyjson.KV("success", r.Success))),
		pyjson.KV("corrected", pyjson.Obj(pyjson.KV("action", action), pyjson.KV("success", success))),
		pyjson.KV("by", by), pyjson.KV("retracted", retracted), pyjson.KV("learning", learned))
}

// A Weight is what a verdict on a past report weighs.
type Weight struct {
	// Evidence is the weight it teaches with, relative to a self-report;
	// Confidence the confidence of the observation evidence it makes, of
	// Kind (belief.FromRating, belief.FromReport).
	Evidence, Confidence float64
	Kind                 string
}

// VerdictWeight is what a verdict weighs: a person's is the strongest
// evidence there is; the agent's own (on its surface) weighs as its
// report did.
func VerdictWeight(person bool) Weight {
	if !person {
		return Weight{Evidence: 1, Confidence: advice.SelfReportConfidence, Kind: belief.FromReport}
	}
	return Weight{Evidence: advice.RatingConfidence / advice.SelfReportConfidence, Confidence: advice.RatingConfidence, Kind: belief.FromRating}
}
