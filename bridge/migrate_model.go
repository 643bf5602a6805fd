package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/audit"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// migrateModel changes a workspace's learning model (audit.ModelMove): a
// fresh model of the new one is taught the workspace's history (every
// report of the action log, in its context: history.Reports), in order,
// along the agent's trail.
func migrateModel(s *session, to string) (pyjson.Value, error) {
	mv, err := audit.MoveModel(s.meta.Model, to, s.meta.Format)
	if err != nil {
		return pyjson.Value{}, err
	}
	if mv.Model == nil {
		s.unchanged = true
		return pyjson.ObjectValue(mv.Answer(0)), nil
	}
	backup, err := mv.Backup(s.tx, s.replaying)
	if err != nil {
		return pyjson.Value{}, err
	}
	h, err := history.Reports(s.tx, s.ws)
	if err != nil {
		return pyjson.Value{}, err
	}
	// v5's records go to a generation of the record log of their own (the
	// migrate event's), so nothing learned by an earlier period on v5 is
	// read again.
	m := mv.Model
	mem, recs, learned := s.place().RelearnAs(m, s.meta.Seq+1, h)
	if m.NextSteps() {
		if err := s.setRecords(mem.Steps.Generation, recs); err != nil {
			return pyjson.Value{}, err
		}
	}
	s.meta.Model, s.model, s.learning.State, s.learning.Steps = to, m, mem.State, mem.Steps
	out := mv.Answer(learned)
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
