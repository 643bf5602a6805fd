package bridge

import (
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// migrateModel changes a workspace's learning model, explicitly: it
// changes the advice, so unlike a format migration no call ever does it by
// itself. To a model of package learn (v3, v4), from any other, the
// workspace's history is learned again: every report of the action log
// (with the context of its journal event, or of the consult before it) is
// taught to a fresh model, in order, along the agent's trail. The
// engine's state is kept as it is. The step is one journaled event
// ("migrate", args model), so verify replays it like any other.
func migrateModel(s *session, to string) (pyjson.Value, error) {
	from, m := s.meta.Model, advice.LookupModel(to)
	switch {
	case m == nil:
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
	case !m.UCSOwn():
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
	h, err := history.Reports(s.tx, s.ws)
	if err != nil {
		return pyjson.Value{}, err
	}
	// v5's records go to a generation of the record log of their own (the
	// migrate event's), so nothing learned by an earlier period on v5 is
	// read again.
	mem, recs, learned := s.place().RelearnAs(m, s.meta.Seq+1, h)
	if m.NextSteps() {
		if err := s.setRecords(mem.Steps.Generation, recs); err != nil {
			return pyjson.Value{}, err
		}
	}
	s.meta.Model, s.model, s.learning.State, s.learning.Steps = to, m, mem.State, mem.Steps
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
