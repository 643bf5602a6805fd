package dashboard

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unified-cognitive-substrate/ucs/internal/phrase"
)

// Counts people read say times only when they are whole: in show's table
// a learning model's weighted counts are marked "w" so no one reads them
// as times; phrase.CountOf, the advisory precision's, names them as weights.
func TestCountsForPeople(t *testing.T) {
	for _, tc := range []struct {
		s, n         float64
		count, table string
	}{
		{9, 9, "9 of 9", "9/9"},
		{0, 0, "0 of 0", "0/0"},
		{1.5, 1.5, "weight 1.5 of 1.5", "w 1.5/1.5"},
		{1, 2.5, "weight 1 of 2.5", "w 1/2.5"},
		{14.5, 16.5, "weight 14.5 of 16.5", "w 14.5/16.5"},
	} {
		assert.Equal(t, tc.count, phrase.CountOf(tc.s, tc.n))
		assert.Equal(t, tc.table, outcomeCount(tc.s, tc.n))
	}
}
