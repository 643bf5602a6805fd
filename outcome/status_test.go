package outcome

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Each status's words, reward and learning value: the reward is the
// reference's base reward (v2), bit for bit; a word that is none of the
// statuses earns and teaches nothing, as a journal's odd word did before
// there was a type.
func TestStatus(t *testing.T) {
	for _, tc := range []struct {
		s         Status
		reward    float64
		y, weight float64
		learned   Status
	}{
		{Success, 0.80, 1, 1, Success},
		{Partial, 0.45, 0.5, 1, Partial},
		{Neutral, 0.30, 0, 0, Neutral},
		{Failure, 0.10, 0, 1, Failure},
		{Timeout, 0, 0, 0, Failure},
		{"", 0, 0, 0, ""},
		{"SUCCESS", 0, 0, 0, "SUCCESS"}, // an unparsed word is none of them
		{"done", 0, 0, 0, "done"},
	} {
		assert.Equal(t, tc.reward, tc.s.Reward(), "%q", tc.s)
		y, w := tc.s.Learning()
		assert.Equal(t, [2]float64{tc.y, tc.weight}, [2]float64{y, w}, "%q", tc.s)
		assert.Equal(t, tc.learned, tc.s.Learned(), "%q", tc.s)
		assert.Equal(t, string(tc.s), tc.s.String())
	}
}

func TestParseStatus(t *testing.T) {
	for _, tc := range []struct {
		word string
		want Status
		ok   bool
	}{
		{"success", Success, true}, {"Success", Success, true}, {"PARTIAL", Partial, true},
		{"neutral", Neutral, true}, {"failure", Failure, true}, {"TimeOut", Timeout, true},
		{"", "", false}, {"succes", "", false}, {" success", "", false},
		{"ſuccess", Success, true}, // Unicode's case folding, as the registry's any-case words
	} {
		got, ok := ParseStatus(tc.word)
		assert.Equal(t, tc.want, got, "%q", tc.word)
		assert.Equal(t, tc.ok, ok, "%q", tc.word)
	}
	assert.Equal(t, []Status{Success, Partial, Neutral, Failure}, Reported)
}
