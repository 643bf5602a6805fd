package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
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
		st.Policy = s.policyStatus()
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
	Output:  statusOutput,
	Name:    "status",
	Summary: "Quick health check",
	Long:    `t, cursor, PP health, artifact and judgment counts, the report counter and the last synthesis.`,
	Example: "ucs status",
	run:     opStatus,
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
