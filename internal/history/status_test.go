package history

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/goal"
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

// TestStatusBeyond: what a workspace has beyond the reference's answer
// follows it, in order, and only what it has: a book without goals adds
// nothing, nor does a model that keeps no count.
func TestStatusBeyond(t *testing.T) {
	e := torusfield.New(torusfield.DefaultManifest(), torusfield.Options{})
	m := &workspace.Meta{AgentID: "a"}
	keys := func(v pyjson.Value) []string {
		var out []string
		for _, mb := range v.Members()[13:] {
			out = append(out, mb.Key)
		}
		return out
	}
	assert.Empty(t, keys(Status{Engine: e, Meta: m, Goals: &goal.Book{}}.Value()))
	st := Status{Engine: e, Meta: m, Model: "v4", Precision: pyjson.Obj(), Policy: pyjson.Obj(), HasPending: true,
		Goals: &goal.Book{Open: []*goal.Goal{{ID: "g1", State: goal.Active}, {ID: "g2", State: goal.Suspended}}}}
	v := st.Value()
	assert.Equal(t, []string{"learning", "policy", "pending_observations", "goals"}, keys(v))
	assert.Equal(t, `{"model":"v4","advisory_precision":{}}`, string(pyjson.AppendCompact(nil, v.GetOr("learning", pyjson.NullValue()))))
	assert.Equal(t, `0`, string(pyjson.AppendCompact(nil, v.GetOr("pending_observations", pyjson.NullValue()))))
	assert.Equal(t, `{"open":2,"active":1}`, string(pyjson.AppendCompact(nil, v.GetOr("goals", pyjson.NullValue()))))
}

// TestBriefingGoals: active goals join the briefing, with what to do
// about them last among the recommendations; a book without goals keeps
// the reference's briefing.
func TestBriefingGoals(t *testing.T) {
	e := torusfield.New(torusfield.DefaultManifest(), torusfield.Options{})
	b := Briefing{Engine: e, Recommendations: []string{"first"}}
	plain := string(pyjson.AppendCompact(nil, b.Value()))
	b.Goals = &goal.Book{}
	assert.Equal(t, plain, string(pyjson.AppendCompact(nil, b.Value())))
	b.Goals = &goal.Book{Open: []*goal.Goal{{ID: "g2", State: goal.Suspended}}}
	v := b.Value()
	assert.Equal(t, `[]`, string(pyjson.AppendCompact(nil, v.GetOr("active_goals", pyjson.NullValue()))))
	assert.Equal(t, `["first"]`, string(pyjson.AppendCompact(nil, v.GetOr("recommendations", pyjson.NullValue()))))
	b.Goals.Open = append(b.Goals.Open, &goal.Goal{ID: "g1", State: goal.Active})
	v = b.Value()
	assert.Equal(t, `["first",`+string(pyjson.AppendCompact(nil, pyjson.StringValue(GoalsRecommendation(1))))+`]`,
		string(pyjson.AppendCompact(nil, v.GetOr("recommendations", pyjson.NullValue()))))
	assert.Equal(t, "recommendations", v.Members()[len(v.Members())-2].Key, "recommendations keep their place")
}
