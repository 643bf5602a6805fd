package advice

import (
	"fmt"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
)

// A ReportContext is what a report was made in: its context and task,
// else those of the consult since the report before, and its event.
type ReportContext struct {
	Text, Task string
	Seq        int64
}

// A Contexter follows a journal's events, in order, to give each report
// the context it was made in: its own, else that of the consult since the
// report before.
type Contexter struct{ consulted, task string }

// Next is the context of an event (its op, args, input and seq) when it
// is a report.
func (rc *Contexter) Next(op string, args, input pyjson.Value, seq int64) (ReportContext, bool) {
	switch op {
	case "consult":
		rc.consulted, rc.task = args.StrOf("context"), args.StrOf("task")
	case "report":
		text, task := input.StrOf("context"), input.StrOf("task")
		if text == "" {
			text = rc.consulted
		}
		if task == "" {
			task = rc.task
		}
		rc.consulted, rc.task = "", ""
		return ReportContext{Text: text, Task: task, Seq: seq}, true
	}
	return ReportContext{}, false
}

// A History is a workspace's reports as the action log and the journal
// keep them: the action log's lines, and the context of each report event
// of the journal, which are the log's last lines, from Offset on (lines
// before them, an adopted reference workspace's, have no context).
type History struct {
	Lines    []pyjson.Value
	Contexts []ReportContext
	Offset   int
}

// NewHistory joins the action log's lines to the contexts of the
// journal's report events, which are the log's last lines. A journal
// with more reports than the log has lines is an error: the two disagree.
func NewHistory(lines []pyjson.Value, contexts []ReportContext) (History, error) {
	h := History{Lines: lines, Contexts: contexts, Offset: len(lines) - len(contexts)}
	if h.Offset < 0 {
		return History{}, fmt.Errorf("the journal holds %d reports but the action log %d lines", len(contexts), len(lines))
	}
	return h, nil
}

// Texts are the contexts' texts, in order.
func Texts(contexts []ReportContext) []string {
	texts := make([]string, len(contexts))
	for i, c := range contexts {
		texts[i] = c.Text
	}
	return texts
}

// LearnedReports are the history's reports as a learning model (v3, v4)
// relearns them (learn.Relearn): in order, each with its context and
// event, those between capabilities of the manifest.
func (p Place) LearnedReports(h History) []learn.Report {
	reports := make([]learn.Report, 0, len(h.Lines))
	for i, line := range h.Lines {
		r := learn.Report{From: line.StrOf("cursor_before"), To: line.StrOf("action"), Success: line.StrOf("success"), Weight: 1}
		if !p.Manifest.Has(r.To) || !p.Manifest.Has(r.From) {
			continue
		}
		if i >= h.Offset {
			r.Context, r.Clock = h.Contexts[i-h.Offset].Text, h.Contexts[i-h.Offset].Seq
		}
		if x, ok := line.Get("evidence_weight"); ok {
			r.Weight, _ = x.Float()
		}
		reports = append(reports, r)
	}
	return reports
}

// StepReports are the history's reports as a v5 model relearns them
// (Place.Relearn): in order, each in its task and context.
func (h History) StepReports() []Report {
	reports := make([]Report, len(h.Lines))
	for i, line := range h.Lines {
		r := Report{Action: line.StrOf("action"), Success: line.StrOf("success"), Weight: 1}
		if i >= h.Offset {
			r.Task, r.Context = h.Contexts[i-h.Offset].Task, h.Contexts[i-h.Offset].Text
		}
		if x, ok := line.Get("evidence_weight"); ok {
			r.Weight, _ = x.Float()
		}
		reports[i] = r
	}
	return reports
}

// WindowReports are the action log's last lines as learn.Transitions
// reads them: newest first, those between capabilities of the manifest,
// each with its context. contexts[j] is the context of lines[j+offset];
// offset is negative when the contexts begin before the window.
func (p Place) WindowReports(lines []pyjson.Value, contexts []string, offset int) []learn.Report {
	reports := make([]learn.Report, 0, len(lines))
	for i := len(lines) - 1; i >= 0; i-- {
		line := lines[i]
		r := learn.Report{From: line.StrOf("cursor_before"), To: line.StrOf("action"),
			Success: line.StrOf("success"), Time: line.StrOf("timestamp")}
		if !p.Manifest.Has(r.From) || !p.Manifest.Has(r.To) {
			continue
		}
		if j := i - offset; j >= 0 && j < len(contexts) {
			r.Context = contexts[j]
		}
		reports = append(reports, r)
	}
	return reports
}

// TransitionValue is a transition as show and view answer it.
func TransitionValue(t *learn.Transition) pyjson.Value {
	var rate, last any
	if t.N > 0 {
		rate = pyjson.Round(t.Rate(), 4)
	}
	if t.LastSeen != "" {
		last = t.LastSeen
	}
	return pyjson.Obj(
		pyjson.KV("from", t.From),
		pyjson.KV("to", t.To),
		pyjson.KV("successes", pyjson.Round(t.S, 2)),
		pyjson.KV("of", pyjson.Round(t.N, 2)),
		pyjson.KV("rate", rate),
		pyjson.KV("contexts", OrEmpty(t.Contexts)),
		pyjson.KV("last_seen", last),
		pyjson.KV("discovered", t.Discovered),
	)
}

// PairList is learned transitions as learn.Transitions reads them.
type PairList []learn.Pair

// Pairs returns the list.
func (p PairList) Pairs() []learn.Pair { return p }
