package bridge

import (
	"time"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/dashboard"
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

var viewSpec = Spec{
	Op:    contract.View,
	run:   opView,
	fleet: fleetPage,
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
	return writePage(c, d.Page(), d.Shown())
}

// writePage answers a page (view's, the fleet's) with what it shows,
// counts: the page itself with inline, else written to --out.
func writePage(c Call, page []byte, counts pyjson.Value) (pyjson.Value, error) {
	if argBool(c, "inline") {
		return pyjson.Obj(pyjson.KV("html", string(page)), pyjson.KV("bytes", len(page)), pyjson.KV("shown", counts)), nil
	}
	path := c.Args.StrOf("out")
	// The page holds what the workspace holds, which is kept private: it
	// is written 0600, to a new file renamed into place, so a link at
	// --out is replaced, never written through.
	if err := workspace.WritePrivate(path, page); err != nil {
		return pyjson.Value{}, fault.BadInput(fault.CodeUnwritableOutput, "give --out a file in a directory you can write", "cannot write %s: %v", path, err)
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
