package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
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
	if s.state.policy.raw != nil || s.state.policy.decoded || len(s.gated()) > 0 {
		out = out.With("policy", s.policyStatus())
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
	Output:  statusOutput,
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

// statusOutput is the answer of status.
var statusOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "\"ok\""},
	{Name: "t", Type: field.Int, Always: true, Doc: "the engine's step"},
	{Name: "cursor", Type: field.String, Always: true, Doc: "the capability the agent is at"},
	{Name: "pp_health", Type: field.Number, Always: true, Doc: "the health of the engine's PP vector, 0 to 1"},
	{Name: "pp", Type: field.Object, Always: true, Doc: "the PP vector's components"},
	{Name: "artifact_count", Type: field.Int, Always: true, Doc: "the artifacts the engine holds"},
	{Name: "unannotated_count", Type: field.Int, Always: true, Doc: "artifacts awaiting an annotation"},
	{Name: "stale_artifact_count", Type: field.Int, Always: true, Doc: "artifacts not detected for long"},
	{Name: "judgment_node_count", Type: field.Int, Always: true, Doc: "the judgment nodes held (at most the window consult searches)"},
	{Name: "report_counter", Type: field.Int, Always: true, Doc: "reports since the last reflection prompt"},
	{Name: "reports_total", Type: field.Int, Always: true, Doc: "reports ever made"},
	{Name: "last_synthesis", Type: field.String, Null: true, Always: true, Doc: "when the last synthesis ran; null: never"},
	{Name: "agent_id", Type: field.String, Always: true, Doc: "the workspace's agent"},
	{Name: "policy", Type: field.Object, Doc: "the permission policy: whether one is set, and its grants"},
	{Name: "pending_observations", Type: field.Int, Doc: "outcomes queued while the workspace was busy, not yet applied"},
	{Name: "goals", Type: field.Object, Doc: "the goals open and active"},
	{Name: "learning", Type: field.Object, Doc: "what the learned model (v3 and later) has learnt"},
}
