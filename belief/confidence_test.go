package belief

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

var t0 = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

// ev is evidence from a source of a kind, with a stance, given by by at t0.
func ev(source, kind string, s Stance, by string) Evidence {
	return Evidence{Source: kind + ":" + source, SourceKind: kind, Stance: s, Weight: 1, At: t0, By: by}
}

func TestComputeConfidence(t *testing.T) {
	reflection := ev("r1", FromReflection, Support, "agent-1")
	confirm := ev("c1", FromOperator, Support, Operator)
	contra1, contra2 := ev("x1", FromExec, Contradict, "agent-1"), ev("p1", FromReport, Contradict, "agent-1")
	for _, tc := range []struct {
		name       string
		ev         []Evidence
		at         time.Time
		value      float64
		outweighed bool
		operator   float64
	}{
		{"one weak support is modest", []Evidence{reflection}, t0, 0.6*(1-1/sqrt2) + 0.4*0.5, false, 0},
		{"an operator's confirmation outweighs two weak contradictions",
			[]Evidence{reflection, confirm, contra1, contra2}, t0, 0.8 * 0.5, false, 1},
		{"without it, they invalidate", []Evidence{reflection, contra1, contra2}, t0, 0, true, 0},
		{"the operator's word alone outweighs two", []Evidence{confirm, contra1, contra2}, t0, (0.6*(1-1/sqrt2) + 0.4*0.5 + (1-0.6*(1-1/sqrt2)-0.4*0.5)/2) / 3, false, 1},
		{"equal weights invalidate", []Evidence{reflection, contra1}, t0, 0, true, 0},
		{"context counts for nothing", []Evidence{reflection, ev("n", FromRating, Context, "agent-1")}, t0, 0.6*(1-1/sqrt2) + 0.4*0.5, false, 0},
		{"the operator's later contradiction withdraws the confirmation",
			[]Evidence{reflection, confirm, ev("c2", FromOperator, Contradict, Operator)}, t0, 0.6 * 0.25, false, 0},
		{"age takes a quarter after one cadence", []Evidence{reflection}, t0.Add(3 * day), (0.6*(1-1/sqrt2) + 0.4*0.5) * 0.75, false, 0},
		{"and at most half", []Evidence{reflection}, t0.Add(3000 * day), (0.6*(1-1/sqrt2) + 0.4*0.5) * 0.5, false, 0},
		{"no evidence", nil, t0, 0, false, 0},
		{"contradiction alone", []Evidence{contra1}, t0, 0, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ComputeConfidence(tc.ev, tc.at, ToolingState)
			assert.InDelta(t, tc.value, c.Value, 1e-12)
			assert.Equal(t, tc.outweighed, c.Outweighed())
			assert.Equal(t, tc.operator, c.Operator)
			assert.Equal(t, tc.at, c.At)
		})
	}
	// The brief's bounds: one weak support is modest.
	v := ComputeConfidence([]Evidence{reflection}, t0, SelfModel).Value
	assert.True(t, v > 0.3 && v < 0.5, v)
}

const sqrt2 = 1.4142135623730951

func at(e Evidence, t time.Time) Evidence { e.At = t; return e }

// Each further source adds less than the one before; a source repeated adds
// nothing.
func TestConfidenceDiminishingReturns(t *testing.T) {
	var evs []Evidence
	prev, gain := 0.0, 1.0
	for n := 1; n <= 8; n++ {
		evs = append(evs, ev(fmt.Sprint("r", n), FromReflection, Support, "agent-1"))
		v := ComputeConfidence(evs, t0, WorldFact).Value
		assert.Greater(t, v, prev, n)
		assert.Less(t, v-prev, gain, n)
		prev, gain = v, v-prev
		assert.Equal(t, v, ComputeConfidence(append(evs, evs[0]), t0, WorldFact).Value, "a repeated source")
	}
	assert.Less(t, prev, 0.8) // one kind of source never reaches certainty
}

// Two kinds of source are worth more than two of one kind, at equal
// weight.
func TestConfidenceDiversity(t *testing.T) {
	same := ComputeConfidence([]Evidence{ev("a", FromReflection, Support, "agent-1"), ev("b", FromReflection, Support, "agent-1")}, t0, WorldFact)
	mixed := ComputeConfidence([]Evidence{ev("a", FromReflection, Support, "agent-1"), ev("b", FromExec, Support, "agent-1")}, t0, WorldFact)
	assert.Equal(t, same.Sources, mixed.Sources)
	assert.Equal(t, same.Support, mixed.Support)
	assert.Equal(t, 0.5, same.Diversity)
	assert.Equal(t, 0.75, mixed.Diversity)
	assert.Greater(t, mixed.Value, same.Value)
}

// Value stays in [0, 1] whatever the weights.
func TestConfidenceClamped(t *testing.T) {
	for _, w := range []float64{1e-9, 0.5, 1, MaxWeight} {
		for _, by := range []string{"agent-1", Operator} {
			evs := []Evidence{}
			for i := range 20 {
				e := ev(fmt.Sprint(i), SourceKinds[i%len(SourceKinds)], Support, by)
				e.Weight = w
				evs = append(evs, e)
			}
			c := ComputeConfidence(evs, t0, WorldFact)
			assert.True(t, c.Value >= 0 && c.Value <= 1, c.Value)
		}
	}
}
