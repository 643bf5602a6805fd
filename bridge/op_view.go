package bridge

import (
	"time"

	"github.com/unified-cognitive-substrate/ucs/dashboard"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

var viewSpec = Spec{
	Output:  viewOutput,
	Name:    "view",
	Summary: "Write a self-contained HTML dashboard of what ucs has learned, and say where",
	Long: `One HTML file that opens from disk, with no network: first each recent
task's chain of steps learned from its start (show's), with the
alternatives at each step; the capability graph
with the learned transitions (thickness: evidence, colour: success rate),
filterable by context, the artifacts marked; for each context consulted (the
50 most recent) the suggestions with every component of their score, as
consult gives them now (computed by ucs on a copy: nothing is kept); advisory
precision, PP health and reports per day; the torus's fields as heat maps;
goals, observations, dead ends, annotations and the journal's newest events.
Each kind is bounded, with counts of the rest. It changes nothing in the
workspace; the answer says the file's path, size and what it holds.`,
	Example: "ucs view --out /tmp/ucs.html\nucs view --since 7d",
	Fields: []field.Field{
		{Name: "out", Type: field.String, Flag: true, Path: true, Default: "ucs-dashboard.html", Doc: "the HTML file to write"},
		{Name: "inline", Type: field.Bool, Flag: true, Doc: "answer the page itself (member html) and write no file (always, as an MCP tool)"},
		{Name: "since", Type: field.String, Flag: true, Doc: "only the history (events, contexts, curves) from this date, time or span (7d, 24h) on"},
	},
	run: opView,
}

func opView(s *session, c Call) (pyjson.Value, error) {
	var since time.Time
	if arg := c.Args.StrOf("since"); arg != "" {
		t, err := history.ParseSince(arg, s.now)
		if err != nil {
			return pyjson.Value{}, err
		}
		since = t
	}
	d, err := s.dashboardData(since)
	if err != nil {
		return pyjson.Value{}, err
	}
	page, counts := d.Page(), d.Shown()
	if argBool(c, "inline") {
		return pyjson.Obj(pyjson.KV("html", string(page)), pyjson.KV("bytes", len(page)), pyjson.KV("shown", counts)), nil
	}
	path := c.Args.StrOf("out")
	// The page holds what the workspace holds, which is kept private: it
	// is written 0600, to a new file renamed into place, so a link at
	// --out is replaced, never written through.
	if err := workspace.WritePrivate(path, page); err != nil {
		return pyjson.Value{}, badInput(fault.CodeUnwritableOutput, "give --out a file in a directory you can write", "cannot write %s: %v", path, err)
	}
	return pyjson.Obj(pyjson.KV("path", path), pyjson.KV("bytes", len(page)), pyjson.KV("shown", counts)), nil
}

// dashboardData gathers what the page draws, reading the history from
// since on (all of it when zero); the dashboard lays it out.
func (s *session) dashboardData(since time.Time) (*dashboard.Data, error) {
	e := s.engine
	d := &dashboard.Data{Generated: pyjson.ISOTime(s.now)}
	if !since.IsZero() {
		d.Since = pyjson.ISOTime(since)
	}
	reports, h, err := s.history(d.Since)
	if err != nil {
		return nil, err
	}
	d.History = h
	ts, err := s.transitions(transitionWindow, reports)
	if err != nil {
		return nil, err
	}
	anns, err := s.annotations()
	if err != nil {
		return nil, err
	}
	d.Graph = dashboard.NewGraph(e, ts, anns, advice.TransitionValue)
	for i, c := range h.Contexts {
		if h.Contexts[i].Advice, err = s.consultNow(c.Text); err != nil {
			return nil, err
		}
	}
	if d.Tasks, err = s.taskChains(reports, dashboard.MaxTasks); err != nil {
		return nil, err
	}
	if d.Precision, err = s.precision(); err != nil {
		return nil, err
	}
	if d.PP, err = s.window(relPPHistory, dashboard.MaxPP); err != nil {
		return nil, err
	}
	d.Fields = dashboard.FieldsOf(e.Grid)
	gb, err := s.goals()
	if err != nil {
		return nil, err
	}
	d.Goals, d.GoalsTotal = dashboard.GoalsOf(gb)
	if s.model.GovernsKnowledge() { // a model that keeps no knowledge shows none
		b, err := s.book()
		if err != nil {
			return nil, err
		}
		d.Observations = dashboard.ObservationsOf(b, s.now)
	}
	if d.DeadEnds, err = s.window(relDeadEnds, dashboard.MaxEntries); err != nil {
		return nil, err
	}
	if d.Annotations, err = s.window(relAnnotations, dashboard.MaxEntries); err != nil {
		return nil, err
	}
	total := func(rel string) int { return s.meta.Files[rel].Lines }
	d.DeadEndsTotal, d.AnnotationsTotal = total(relDeadEnds), total(relAnnotations)
	nReports, err := s.reportsTotal()
	if err != nil {
		return nil, err
	}
	d.Workspace = dashboard.Workspace{AgentID: s.meta.AgentID, Model: s.meta.Model, Seq: s.meta.Seq,
		T: e.Grid.T, Cursor: e.Cursor.Node, PPHealth: e.PP.Health(), ReportsTotal: nReports,
		MethodologyTotal: total(relMethodology), JudgmentTotal: total(relJudgment)}
	return d, nil
}

// history reads the journal in one pass: every report's context
// (reportContexts'), whatever since says, and for the page the events
// from since (ISO 8601; "" for all) on.
func (s *session) history(since string) ([]advice.ReportContext, *dashboard.History, error) {
	h := dashboard.NewHistory()
	j, ok, err := s.ws.OpenJournal()
	if err != nil || !ok {
		return nil, h, err
	}
	defer j.Close()
	var reports []advice.ReportContext
	var rc advice.Contexter
	for {
		ev, _, ok := j.Next()
		if !ok {
			break
		}
		if r, ok := rc.Next(ev.Op, ev.Args, ev.Input, ev.Seq); ok {
			reports = append(reports, r)
		}
		if since != "" && ev.Now < since {
			continue
		}
		raw := ev.Raw()
		h.Record(raw, summarize(raw, s.declarations()), changed(raw))
	}
	if err := j.Err(); err != nil {
		return nil, nil, corrupt(err, relJournal)
	}
	h.Close()
	return reports, h, nil
}

// viewOutput is the answer of view.
var viewOutput = []field.Output{
	{Name: "bytes", Type: field.Int, Always: true, Doc: "the page's size in bytes"},
	{Name: "shown", Type: field.Object, Always: true, Doc: "what the page shows, counted"},
	{Name: "html", Type: field.String, Doc: "with inline (always through a tool): the page itself"},
	{Name: "path", Type: field.String, Doc: "the file the page was written to"},
}
