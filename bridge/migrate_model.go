package bridge

import (
	"fmt"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// learningModels are the models migrate --model takes: the Enum of
// migrateSpec, named so that literal stays as the operations' table has it.
var learningModels = advice.LearningModels

// migrateModel changes a workspace's learning model, explicitly: it
// changes the advice, so unlike a format migration no call ever does it by
// itself. To a model of package learn (v3, v4), from any other, the
// workspace's history is learned again: every report of the action log
// (with the context of its journal event, or of the consult before it) is
// taught to a fresh model, in order, along the agent's trail. The
// engine's state is kept as it is. The step is one journaled event
// ("migrate", args model), so verify replays it like any other.
func migrateModel(s *session, to string) (pyjson.Value, error) {
	from := s.meta.Model
	switch {
	case advice.LookupModel(to) == nil:
		return pyjson.Value{}, badInput(fault.CodeInvalidValue, "use one of: "+strings.Join(advice.Models(), ", "), "there is no learning model %q", to)
	case s.meta.Format < WorkspaceFormat:
		return pyjson.Value{}, badInput(fault.CodeInvalidValue, "run `ucs migrate` first, then `ucs migrate --model "+to+"`",
			"the workspace is in format %d; migrate its format first", s.meta.Format)
	case from == to:
		// Nothing to do is an answer, not an error: a script that makes
		// sure of the model runs it every time.
		s.unchanged = true
		return pyjson.Obj(pyjson.KV("status", "already_current"), pyjson.KV("model_from", from), pyjson.KV("model", to),
			pyjson.KV("reports_learned", 0)), nil
	case !advice.LookupModel(to).Learns() && !advice.LookupModel(to).NextSteps():
		return pyjson.Value{}, badInput(fault.CodeInvalidValue, "a workspace can move to one of: "+strings.Join(advice.LearningModels(), ", "),
			"cannot migrate from the learning model %q to %q: the reference's model cannot be learned again from a journal", from, to)
	}
	var backup string
	if !s.replaying {
		var err error
		if backup, err = s.tx.Backup("migrate-model-"+from+"-"+to, relState); err != nil {
			return pyjson.Value{}, err
		}
	}
	var learned int
	if m := advice.LookupModel(to); m.NextSteps() {
		v, n, err := relearnSteps(s, m)
		if err != nil {
			return pyjson.Value{}, err
		}
		s.meta.Model, s.model, s.learning.State, s.learning.Steps, learned = to, m, nil, v, n
	} else {
		v, n, err := relearn(s, m)
		if err != nil {
			return pyjson.Value{}, err
		}
		s.meta.Model, s.model, s.learning.State, s.learning.Steps, learned = to, m, v, nil, n
	}
	out := []pyjson.Member{
		pyjson.KV("status", "migrated"),
		pyjson.KV("model_from", from),
		pyjson.KV("model", to),
		pyjson.KV("reports_learned", learned),
	}
	// A model that governs the qualitative memory starts from what the
	// workspace already knows: its entries become observations.
	if s.model.GovernsKnowledge() && s.state.observations.raw == nil {
		n, err := s.observeEntries()
		if err != nil {
			return pyjson.Value{}, err
		}
		b, _ := s.book()
		out = append(out, pyjson.KV("entries_observed", n), pyjson.KV("observations", len(b.Observations())))
	}
	if backup != "" {
		out = append(out, pyjson.KV("backup", backup))
	}
	return pyjson.ObjectValue(out), nil
}

// relearn teaches a fresh state of a learning model the workspace's
// reports, in order (learn.Relearn), and returns it with how many reports
// taught it something.
func relearn(s *session, model *advice.Model) (*learn.State, int, error) {
	h, err := reportHistory(s)
	if err != nil {
		return nil, 0, err
	}
	v, learned := learn.Relearn(s.engine.Graph, s.manifest, *model.Params, s.place().LearnedReports(h))
	return v, learned, nil
}

// reportContext is the context a report was made in
// (advice.ReportContext).
type reportContext struct{ advice.ReportContext }

// reportContexter follows the journal's events to give each report the
// context it was made in (advice.Contexter).
type reportContexter struct{ advice.Contexter }

// next is the context of ev when it is a report.
func (rc *reportContexter) next(ev workspace.Event) (reportContext, bool) {
	r, ok := rc.Next(ev.Op, ev.Args, ev.Input, ev.Seq)
	return reportContext{r}, ok
}

// reportContexts reads the context of every report event of the journal.
func reportContexts(s *session) ([]reportContext, error) {
	j, ok, err := s.ws.OpenJournal()
	if err != nil || !ok {
		return nil, err
	}
	defer j.Close()
	var out []reportContext
	var rc reportContexter
	for {
		ev, _, ok := j.Next()
		if !ok {
			break
		}
		if r, ok := rc.next(ev); ok {
			out = append(out, r)
		}
	}
	if err := j.Err(); err != nil {
		return nil, corrupt(err, relJournal)
	}
	return out, nil
}

// relearnSteps teaches a fresh v5 state the workspace's reports, in
// order (advice.Place.Relearn). The records go to a generation of the
// record log of their own (the migrate event's), so nothing learned by an
// earlier period on v5 is read again.
func relearnSteps(s *session, model *advice.Model) (*advice.Steps, int, error) {
	h, err := reportHistory(s)
	if err != nil {
		return nil, 0, err
	}
	v, m, learned := s.place().Relearn(*model.Steps, s.meta.Seq+1, h.StepReports())
	if err := s.setRecords(v.Generation, m.Records()); err != nil {
		return nil, 0, err
	}
	return v, learned, nil
}

// reportHistory returns the action log's lines and the context of each
// report event of the journal (advice.History).
func reportHistory(s *session) (advice.History, error) {
	lines, err := s.list(relActionLog)
	if err != nil {
		return advice.History{}, err
	}
	contexts, err := reportContexts(s)
	if err != nil {
		return advice.History{}, err
	}
	h := advice.History{Lines: lines, Contexts: make([]advice.ReportContext, len(contexts)), Offset: len(lines) - len(contexts)}
	if h.Offset < 0 {
		return advice.History{}, corrupt(fmt.Errorf("the journal holds %d reports but the action log %d lines", len(contexts), len(lines)), relActionLog)
	}
	for i, c := range contexts {
		h.Contexts[i] = c.ReportContext
	}
	return h, nil
}
