package phrase

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Counts people read say times only when they are whole: a learning
// model's weighted counts ("succeeded 1.5 of 1.5 times" before) are named
// as weights. show's table writes them too (dashboard's
// TestCountsForPeople).
func TestCountsForPeople(t *testing.T) {
	for _, tc := range []struct {
		s, n         float64
		times, count string
	}{
		{9, 9, "9 of 9 times", "9 of 9"},
		{0, 0, "0 of 0 times", "0 of 0"},
		{1.5, 1.5, "with weight 1.5 of 1.5", "weight 1.5 of 1.5"},
		{1, 2.5, "with weight 1 of 2.5", "weight 1 of 2.5"},
		{14.5, 16.5, "with weight 14.5 of 16.5", "weight 14.5 of 16.5"},
	} {
		assert.Equal(t, tc.times, TimesOf(tc.s, tc.n))
		assert.Equal(t, tc.count, CountOf(tc.s, tc.n))
	}
}
