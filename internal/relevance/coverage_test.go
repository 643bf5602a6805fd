package relevance

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// TestCoverageScore pins coverage's formula: knowledge is the hits over 3
// (at most 1); experience the mean over the capabilities of their
// outcomes over 5 (each at most 1); the score their mean, or knowledge's
// alone when the model learns nothing (outcomes nil).
func TestCoverageScore(t *testing.T) {
	outcomes := func(n map[string]float64) func(string) (float64, float64) {
		return func(to string) (float64, float64) { return n[to] / 2, n[to] }
	}
	for _, tc := range []struct {
		name     string
		resolved []string
		found    Found
		outcomes func(string) (float64, float64)
		score    float64
		rec      string
	}{
		{"nothing, v2", nil, Found{}, nil, 0, "little covered: explore, report every action, and reflect afterwards (post_task) to record what worked"},
		{"knowledge alone, v2", []string{"read"}, Found{Methodology: 1, Judgment: 1}, nil, 0.6667, "partly covered: consult, then proceed carefully and report every action, so the gaps fill"},
		{"full knowledge, v2", []string{"read"}, Found{Methodology: 2, DeadEnds: 2, Closed: 1}, nil, 1,
			"well covered: consult and follow its advice, report each action; 1 dead end(s) apply: read them (consult) before trying those avenues again"},
		{"half experience", []string{"read", "edit"}, Found{Methodology: 3}, outcomes(map[string]float64{"read": 5, "edit": 0}), 0.75,
			"well covered: consult and follow its advice, report each action"},
		{"experience capped", []string{"read"}, Found{}, outcomes(map[string]float64{"read": 50}), 0.5,
			"partly covered: consult, then proceed carefully and report every action, so the gaps fill"},
		{"no capability", nil, Found{Methodology: 3}, outcomes(nil), 0.5,
			"partly covered: consult, then proceed carefully and report every action, so the gaps fill"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Coverage("a task", tc.resolved, tc.found, tc.outcomes)
			score, _ := v.Get("score")
			f, _ := score.Float()
			assert.Equal(t, tc.score, f)
			assert.Equal(t, tc.rec, v.StrOf("recommendation"))
			exp, _ := v.Get("experience")
			assert.Equal(t, tc.outcomes == nil, exp.Kind() == pyjson.Null, "experience is null exactly when no model learns")
		})
	}
}

// TestCoverageGaps: each lack is named, a capability with few outcomes
// with its count.
func TestCoverageGaps(t *testing.T) {
	v := Coverage("a task", []string{"edit", "read"}, Found{Methodology: 1}, func(to string) (float64, float64) {
		if to == "read" {
			return 1, 2.5
		}
		return 0, 0
	})
	assert.Equal(t, `["no judgment recorded for this kind of task","no reported outcome of edit","few outcomes (under 5) of read (2.5)"]`,
		string(pyjson.AppendCompact(nil, v.GetOr("gaps", pyjson.NullValue()))))
	v = Coverage("a task", nil, Found{}, nil)
	assert.Equal(t, `["no capability of the manifest matches the task: name the ones it uses with --capabilities","no methodology for this kind of task","no judgment recorded for this kind of task"]`,
		string(pyjson.AppendCompact(nil, v.GetOr("gaps", pyjson.NullValue()))))
}
