package dashboard

import (
	"time"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// GatherShow collects show's answer from the engine and the session: the
// newest tasks' chains, the learned transitions, consult's suggestions
// for context ("" for none), the active goals, the advisory precision and
// the observations due at now. model is the workspace's.
func GatherShow(e *torusfield.Engine, model string, src Source, context string, now time.Time) (Show, error) {
	contexts, err := src.ReportContexts()
	if err != nil {
		return Show{}, err
	}
	ts, err := src.Transitions(contexts)
	if err != nil {
		return Show{}, err
	}
	sh := Show{Model: model, T: e.Grid.T, Cursor: e.Cursor.Node, Due: []pyjson.Value{}}
	sh.Transitions, sh.TransitionsTotal = LearnedFirst(ts, ShowTransitions, advice.TransitionValue)
	if sh.Tasks, err = src.TaskChains(contexts, ShowTasks); err != nil {
		return Show{}, err
	}
	if sh.Context = context; sh.Context != "" {
		adv, err := src.ConsultNow(sh.Context)
		if err != nil {
			return Show{}, err
		}
		sh.Suggestions, _ = adv.Get("suggested_paths")
	}
	gb, err := src.Goals()
	if err != nil {
		return Show{}, err
	}
	sh.Goals = gb.Active()
	if sh.Precision, err = src.Precision(); err != nil {
		return Show{}, err
	}
	if src.KeepsKnowledge() {
		b, err := src.Book()
		if err != nil {
			return Show{}, err
		}
		sh.Due, sh.DueTotal = belief.DueFirst(b, now, ShowObservations)
	}
	return sh, nil
}
