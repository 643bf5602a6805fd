package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// opStatus is a quick health check.
func opStatus(s *session, _ Call) (pyjson.Value, error) {
	e := s.engine
	unannotated, err := s.unannotated()
	if err != nil {
		return pyjson.Value{}, err
	}
	var last any
	if s.meta.LastSynthesisDate != "" {
		last = s.meta.LastSynthesisDate
	}
	total, err := s.reportsTotal()
	if err != nil {
		return pyjson.Value{}, err
	}
	out := pyjson.Obj(
		pyjson.KV("status", "ok"),
		pyjson.KV("t", e.Grid.T),
		pyjson.KV("cursor", e.Cursor.Node),
		pyjson.KV("pp_health", round(e.PP.Health(), 4)),
		pyjson.KV("pp", ppRounded(e.PP)),
		pyjson.KV("artifact_count", e.Artifacts.Len()),
		pyjson.KV("unannotated_count", len(unannotated)),
		pyjson.KV("stale_artifact_count", len(e.Artifacts.Stale(e.Grid.T, torusfield.StaleAfter))),
		pyjson.KV("judgment_node_count", min(s.judgmentCount(), judgmentWindow)),
		// report_counter is the reference's: reports since the last φ-cycle.
		pyjson.KV("report_counter", s.meta.ReportCounter),
		pyjson.KV("reports_total", total),
		pyjson.KV("last_synthesis", last),
		pyjson.KV("agent_id", s.meta.AgentID),
	)
	if key, v := s.modelStatus(); key != "" {
		out = out.With(key, v)
	}
	// The policy and goals, when the workspace has them (one without keeps
	// the reference's answer), or when it gates capabilities.
	if s.policyRaw != nil || s.policySet != nil || len(s.gated()) > 0 {
		out = out.With("policy", s.policyStatus())
	}
	if s.ws.HasPending() {
		out = out.With("pending_observations", s.ws.PendingCount())
	}
	if gb, err := s.goals(); err != nil {
		return pyjson.Value{}, err
	} else if !gb.empty() {
		active, _ := s.activeGoals()
		out = out.With("goals", pyjson.Obj(pyjson.KV("open", len(gb.Open)), pyjson.KV("active", len(active.Items()))))
	}
	return out, nil
}

var statusSpec = Spec{
	Name:    "status",
	Summary: "Quick health check",
	Long:    `t, cursor, PP health, artifact and judgment counts, the report counter and the last synthesis.`,
	Example: "ucs status",
	run:     opStatus,
}

// reportsTotal counts the reports the workspace has taken: one action-log
// line each, a count the state's meta already keeps. A reference workspace
// not yet adopted has its log read.
func (s *session) reportsTotal() (int, error) {
	if !s.tx.Legacy() {
		return s.meta.Files[relActionLog].Lines, nil
	}
	actions, err := s.list(relActionLog)
	return len(actions), err
}
