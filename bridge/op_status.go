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
	out := history.Status{Engine: s.engine, Meta: s.meta, Unannotated: len(unannotated),
		Judgment: min(s.judgmentCount(), judgmentWindow), ReportsTotal: total}.Value()
	// A workspace of ucs's own model says how its advice fared; the
	// reference's answers without (parity).
	if p, err := s.precision(); err == nil && p != nil {
		out = out.With("learning", pyjson.Obj(pyjson.KV("model", s.meta.Model), pyjson.KV("advisory_precision", p)))
	}
	// The policy and goals, when the workspace has them (one without keeps
	// the reference's answer), or when it gates capabilities.
	if s.state.policy.raw != nil || s.state.policy.decoded || len(s.gated()) > 0 {
		out = out.With("policy", s.decisions.Status(s.policy))
	}
	if s.ws.HasPending() {
		out = out.With("pending_observations", s.ws.PendingCount())
	}
	if gb, err := s.goals(); err != nil {
		return pyjson.Value{}, err
	} else if !gb.Empty() {
		active := gb.Active()
		out = out.With("goals", pyjson.Obj(pyjson.KV("open", len(gb.Open)), pyjson.KV("active", len(active.Items()))))
	}
	return out, nil
}

var statusSpec = Spec{
	Op:  contract.Status,
	run: opStatus,
}
