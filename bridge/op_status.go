package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// opStatus is a quick health check.
func opStatus(s *session, _ Call) (pyjson.Value, error) {
	unannotated, err := s.unannotated()
	if err != nil {
		return pyjson.Value{}, err
	}
	total, err := history.ReportsTotal(s.tx)
	if err != nil {
		return pyjson.Value{}, err
	}
	st := history.Status{Engine: s.engine, Meta: s.meta, Unannotated: len(unannotated),
		Judgment: min(s.judgmentCount(), judgmentWindow), ReportsTotal: total, Model: s.meta.Model}
	if p, err := s.precision(); err == nil {
		st.Precision = p
	}
	// The policy, when the workspace has one, or when it gates capabilities.
	if s.state.policy.raw != nil || s.state.policy.decoded || len(s.gated()) > 0 {
		st.Policy = s.decisions.Status(s.policy)
	}
	if st.HasPending = s.ws.HasPending(); st.HasPending {
		st.Pending = s.ws.PendingCount()
	}
	if st.Goals, err = s.goals(); err != nil {
		return pyjson.Value{}, err
	}
	return st.Value(), nil
}

var statusSpec = Spec{
	Op:  contract.Status,
	run: opStatus,
}
