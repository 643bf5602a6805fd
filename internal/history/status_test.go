package history

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// TestStatusValue pins status's reference members: their order, which
// the answer's bytes follow, and a last synthesis that is null until one
// ran.
func TestStatusValue(t *testing.T) {
	e := torusfield.New(torusfield.DefaultManifest(), torusfield.Options{})
	for _, tc := range []struct {
		name, date, last string
	}{
		{"never", "", "null"},
		{"once", "2026-01-02", `"2026-01-02"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &workspace.Meta{AgentID: "a", ReportCounter: 2, LastSynthesisDate: tc.date}
			v := Status{Engine: e, Meta: m, Unannotated: 3, Judgment: 4, ReportsTotal: 5}.Value()
			var keys []string
			for _, mb := range v.Members() {
				keys = append(keys, mb.Key)
			}
			assert.Equal(t, []string{"status", "t", "cursor", "pp_health", "pp", "artifact_count", "unannotated_count",
				"stale_artifact_count", "judgment_node_count", "report_counter", "reports_total", "last_synthesis", "agent_id"}, keys)
			last, ok := v.Get("last_synthesis")
			require.True(t, ok)
			assert.Equal(t, tc.last, string(pyjson.AppendCompact(nil, last)))
			for key, want := range map[string]int64{"unannotated_count": 3, "judgment_node_count": 4, "report_counter": 2, "reports_total": 5} {
				got, _ := v.Get(key)
				n, _ := got.Int()
				assert.Equal(t, want, n, key)
			}
		})
	}
}
