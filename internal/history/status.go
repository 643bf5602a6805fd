package history

import (
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A Status is status's quick health check, as the caller gathered it.
type Status struct {
	Engine *torusfield.Engine
	Meta   *workspace.Meta
	// Unannotated counts the artifacts awaiting an annotation; Judgment
	// the judgment nodes held, at most the window consult searches.
	Unannotated, Judgment, ReportsTotal int
	// Model names the workspace's model and Precision says how its advice
	// fared: nil for a model that keeps no count (the reference's).
	Model     string
	Precision any
	// Policy is what the permission policy says, for a workspace that has
	// one or gates capabilities; null for none.
	Policy pyjson.Value
	// Pending counts the outcomes queued while the workspace was busy,
	// when HasPending says a queue exists.
	Pending    int
	HasPending bool
	// Goals are the workspace's goals; a book without any adds nothing.
	Goals *goal.Book
}

// Value is status's answer: the reference's, then only what the
// workspace has beyond it (learning, policy, pending outcomes, goals), so
// a workspace without keeps the reference's answer.
func (st Status) Value() pyjson.Value {
	e, m := st.Engine, st.Meta
	var last any
	if m.LastSynthesisDate != "" {
		last = m.LastSynthesisDate
	}
	out := pyjson.Obj(
		pyjson.KV("status", "ok"),
		pyjson.KV("t", e.Grid.T),
		pyjson.KV("cursor", e.Cursor.Node),
		pyjson.KV("pp_health", pyjson.Round(e.PP.Health(), 4)),
		pyjson.KV("pp", e.PP.Rounded()),
		pyjson.KV("artifact_count", e.Artifacts.Len()),
		pyjson.KV("unannotated_count", st.Unannotated),
		pyjson.KV("stale_artifact_count", len(e.Artifacts.Stale(e.Grid.T, torusfield.StaleAfter))),
		pyjson.KV("judgment_node_count", st.Judgment),
		// report_counter is the reference's: reports since the last φ-cycle.
		pyjson.KV("report_counter", m.ReportCounter),
		pyjson.KV("reports_total", st.ReportsTotal),
		pyjson.KV("last_synthesis", last),
		pyjson.KV("agent_id", m.AgentID),
	)
	if st.Precision != nil {
		out = out.With("learning", pyjson.Obj(pyjson.KV("model", st.Model), pyjson.KV("advisory_precision", st.Precision)))
	}
	if !st.Policy.IsNull() {
		out = out.With("policy", st.Policy)
	}
	if st.HasPending {
		out = out.With("pending_observations", st.Pending)
	}
	if st.Goals != nil && !st.Goals.Empty() {
		out = out.With("goals", pyjson.Obj(pyjson.KV("open", len(st.Goals.Open)), pyjson.KV("active", len(st.Goals.Active().Items()))))
	}
	return out
}
