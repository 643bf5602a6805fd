package goal

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestObserve(t *testing.T) {
	const now = "2026-01-02T03:04:05Z"
	cases := []struct {
		name       string
		goal       Goal
		status     string
		confidence float64
		change     string
		state      string
		left       int64
	}{
		{"count met", Goal{Criterion: CriterionCount, Target: 2, Successes: 1, State: Active}, "success", 0.5, "completed", Completed, 0},
		{"count not met", Goal{Criterion: CriterionCount, Target: 2, State: Active}, "success", 0.5, "", Active, 0},
		{"threshold met", Goal{Criterion: CriterionThreshold, Target: 1, Confidence: 0.8, State: Active}, "success", 0.8, "completed", Completed, 0},
		{"threshold not met", Goal{Criterion: CriterionThreshold, Target: 1, Confidence: 0.8, State: Active}, "success", 0.7, "", Active, 0},
		{"failure spends a retry", Goal{Criterion: CriterionCount, Target: 1, RetriesLeft: 2, State: Active}, "failure", 1, "retry_used", Active, 1},
		{"failure with none left", Goal{Criterion: CriterionCount, Target: 1, State: Active}, "failure", 1, "failed", Failed, 0},
		{"timeout never fails", Goal{Criterion: CriterionCount, Target: 1, State: Active}, "timeout", 1, "", Active, 0},
		{"partial", Goal{Criterion: CriterionCount, Target: 1, State: Active}, "partial", 1, "", Active, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.goal
			assert.Equal(t, tc.change, g.Observe(7, "act", tc.status, tc.confidence, now))
			assert.Equal(t, tc.state, g.State)
			assert.Equal(t, tc.left, g.RetriesLeft)
			assert.Equal(t, &Outcome{Seq: 7, Action: "act", Status: tc.status, Confidence: tc.confidence}, g.Last)
			if g.State != Active {
				assert.Equal(t, now, g.Closed)
			}
		})
	}
}

func TestIDs(t *testing.T) {
	gb := &Book{Open: []*Goal{{ID: "g4"}}, Closed: []*Goal{{ID: "g7"}}}
	assert.Equal(t, "g8", gb.NextID(), "a book written before goals were numbered counts on from its highest id")
	assert.Equal(t, "g9", gb.NextID())
	gb.Given("g12")
	assert.Equal(t, "g13", gb.NextID(), "a replayed id counts")
	gb.Given("g3")
	assert.Equal(t, int64(13), gb.Numbered, "an older id does not count back")
	for _, bad := range []string{"", "g", "g0", "x3", "g-1", "3"} {
		_, ok := Number(bad)
		assert.False(t, ok, bad)
	}
}

func TestSettleKeepsTheLastClosed(t *testing.T) {
	gb := &Book{}
	for i := range ClosedKept + 3 {
		g := &Goal{ID: ID(int64(i + 1)), State: Completed}
		gb.Open = append(gb.Open, g)
		gb.Settle(g)
	}
	assert.Empty(t, gb.Open)
	assert.Len(t, gb.Closed, ClosedKept)
	assert.Equal(t, "g4", gb.Closed[0].ID)
	active := &Goal{ID: "g999", State: Active}
	gb.Open = append(gb.Open, active)
	gb.Settle(active)
	assert.Equal(t, []*Goal{active}, gb.Open, "an open goal stays open")
}
