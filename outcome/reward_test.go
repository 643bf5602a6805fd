package outcome

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestReferenceReward pins the v2 reward to the reference's formula over
// its table of base rewards, bit for bit, now that the table is
// Status.Reward: the journal's word as spelled, so a word that is
// no status (or a timeout, which the reference does not know) has a base
// of 0, as the table's missing key gave.
func TestReferenceReward(t *testing.T) {
	base := map[string]float64{"success": 0.80, "partial": 0.45, "neutral": 0.30, "failure": 0.10}
	for _, word := range []string{"success", "partial", "neutral", "failure", "timeout", "", "SUCCESS", "done"} {
		for _, u := range []float64{0, 0.1, 0.5, 0.73, 1} {
			want := float64((1.0-0.3)*base[word]) + float64(0.3*u)
			assert.Equal(t, want, ReferenceReward(word, u), "%q, u %v", word, u)
		}
	}
}
