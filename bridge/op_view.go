package bridge

import (
	"time"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/dashboard"
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/policy"
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
	d, err := dashboard.Gather(s.ws, s.tx, s.engine, dashboardSource{s}, s.now, since)
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

// dashboardSource is the session as the dashboard gathers from it, for view
// and show.
type dashboardSource struct{ s *session }

func (v dashboardSource) Transitions(reports []advice.ReportContext) ([]*learn.Transition, error) {
	return v.s.transitions(dashboard.TransitionWindow, reports)
}
func (v dashboardSource) Annotations() (map[string]pyjson.Value, error) { return v.s.annotations() }
func (v dashboardSource) ConsultNow(context string) (pyjson.Value, error) {
	return v.s.consultNow(context)
}
func (v dashboardSource) TaskChains(reports []advice.ReportContext, n int) ([]pyjson.Value, error) {
	return v.s.taskChains(reports, n)
}
func (v dashboardSource) Precision() (any, error)    { return v.s.precision() }
func (v dashboardSource) Goals() (*goal.Book, error) { return v.s.goals() }
func (v dashboardSource) ReportContexts() ([]advice.ReportContext, error) {
	return history.ReportContexts(v.s.ws)
}
func (v dashboardSource) KeepsKnowledge() bool                        { return v.s.model.GovernsKnowledge() }
func (v dashboardSource) Book() (*belief.Book, error)                 { return v.s.book() }
func (v dashboardSource) Declarations() map[string]policy.Declaration { return v.s.declarations() }

// viewOutput is the answer of view.
var viewOutput = []field.Output{
	{Name: "bytes", Type: field.Int, Always: true, Doc: "the page's size in bytes"},
	{Name: "shown", Type: field.Object, Always: true, Doc: "what the page shows, counted"},
	{Name: "html", Type: field.String, Doc: "with inline (always through a tool): the page itself"},
	{Name: "path", Type: field.String, Doc: "the file the page was written to"},
}
