package history

import (
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
}

// Value is status's answer as the reference gives it; the caller adds
// what a workspace has beyond it (learning, policy, goals).
func (st Status) Value() pyjson.Value {
	e, m := st.Engine, st.Meta
	var last any
	if m.LastSynthesisDate != "" {
		last = m.LastSynthesisDate
	}
	return pyjson.Obj(
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
}
