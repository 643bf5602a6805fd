package dashboard

import (
	"time"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/policy"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// TransitionWindow is how many of the action log's last lines show and
// view read for the transitions' contexts and times.
const TransitionWindow = 5000

// Source is what the page and show need of a call's session beyond the
// files its transaction reads: the values the session decodes once and caches, and
// consult's advice computed on a copy. Each returns the session's own
// errors, so view fails as the operation it calls would.
type Source interface {
	Transitions(reports []advice.ReportContext) ([]*learn.Transition, error)
	Annotations() (map[string]pyjson.Value, error)
	ConsultNow(context string) (pyjson.Value, error)
	TaskChains(reports []advice.ReportContext, n int) ([]pyjson.Value, error)
	Precision() (any, error)
	Goals() (*goal.Book, error)
	// ReportContexts are every report's context, from the journal.
	ReportContexts() ([]advice.ReportContext, error)
	// KeepsKnowledge says whether the model keeps observations: one that
	// keeps none shows none, and its book is not read.
	KeepsKnowledge() bool
	Book() (*belief.Book, error)
	Declarations() map[string]policy.Declaration
}

// Gather collects what the page draws from a workspace's transaction,
// its engine and the session (ws is the transaction's workspace, whose journal it reads), reading the history from since on (all of
// it when zero). now is the call's clock.
func Gather(ws *workspace.Workspace, tx *workspace.Tx, e *torusfield.Engine, src Source, now, since time.Time) (*Data, error) {
	d := &Data{Generated: pyjson.ISOTime(now)}
	if !since.IsZero() {
		d.Since = pyjson.ISOTime(since)
	}
	reports, h, err := ReadHistory(ws, d.Since, src.Declarations())
	if err != nil {
		return nil, err
	}
	d.History = h
	ts, err := src.Transitions(reports)
	if err != nil {
		return nil, err
	}
	anns, err := src.Annotations()
	if err != nil {
		return nil, err
	}
	d.Graph = NewGraph(e, ts, anns, advice.TransitionValue)
	for i, c := range h.Contexts {
		if h.Contexts[i].Advice, err = src.ConsultNow(c.Text); err != nil {
			return nil, err
		}
	}
	if d.Tasks, err = src.TaskChains(reports, MaxTasks); err != nil {
		return nil, err
	}
	if d.Precision, err = src.Precision(); err != nil {
		return nil, err
	}
	if d.PP, err = tx.Tail(workspace.RelPPHistory, MaxPP); err != nil {
		return nil, err
	}
	d.Fields = FieldsOf(e.Grid)
	gb, err := src.Goals()
	if err != nil {
		return nil, err
	}
	d.Goals, d.GoalsTotal = GoalsOf(gb)
	if src.KeepsKnowledge() {
		b, err := src.Book()
		if err != nil {
			return nil, err
		}
		d.Observations = ObservationsOf(b, now)
	}
	if d.DeadEnds, err = tx.Tail(workspace.RelDeadEnds, MaxEntries); err != nil {
		return nil, err
	}
	if d.Annotations, err = tx.Tail(workspace.RelAnnotations, MaxEntries); err != nil {
		return nil, err
	}
	meta := &tx.Meta
	total := func(rel string) int { return meta.Files[rel].Lines }
	d.DeadEndsTotal, d.AnnotationsTotal = total(workspace.RelDeadEnds), total(workspace.RelAnnotations)
	nReports, err := history.ReportsTotal(tx)
	if err != nil {
		return nil, err
	}
	d.Workspace = Workspace{AgentID: meta.AgentID, Model: meta.Model, Seq: meta.Seq,
		T: e.Grid.T, Cursor: e.Cursor.Node, PPHealth: e.PP.Health(), ReportsTotal: nReports,
		MethodologyTotal: total(workspace.RelMethodology), JudgmentTotal: total(workspace.RelJudgment)}
	return d, nil
}
