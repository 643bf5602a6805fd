package history

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// TestCorrect: an amendment keeps what it does not give, and is bad input
// when it names no capability or changes nothing.
func TestCorrect(t *testing.T) {
	m := torusfield.DefaultManifest()
	names := m.Names()
	require.GreaterOrEqual(t, len(names), 2)
	r := Report{Action: names[0], Success: "success"}
	for _, tc := range []struct {
		name, action, success string
		wantAction, wantSucc  string
		code                  string
	}{
		{"verdict", "", "failure", names[0], "failure", ""},
		{"capability", names[1], "", names[1], "success", ""},
		{"both", names[1], "partial", names[1], "partial", ""},
		{"unknown", "no_such_capability", "failure", "", "", fault.CodeUnknownCapability},
		{"same", names[0], "success", "", "", fault.CodeInvalidValue},
		{"nothing", "", "", "", "", fault.CodeInvalidValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			action, success, err := r.Correct(m, "PINNED", tc.action, tc.success)
			if tc.code != "" {
				var fe *fault.Error
				require.True(t, errors.As(err, &fe), "%v", err)
				assert.Equal(t, tc.code, fe.Code)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantAction, action)
			assert.Equal(t, tc.wantSucc, success)
		})
	}
}

// TestVerdictWeight: a person's verdict teaches as a rating, the agent's
// own as its report did.
func TestVerdictWeight(t *testing.T) {
	for _, tc := range []struct {
		person bool
		want   Weight
	}{
		{true, Weight{Evidence: advice.RatingConfidence / advice.SelfReportConfidence, Confidence: advice.RatingConfidence, Kind: belief.FromRating}},
		{false, Weight{Evidence: 1, Confidence: advice.SelfReportConfidence, Kind: belief.FromReport}},
	} {
		assert.Equal(t, tc.want, VerdictWeight(tc.person), "person %v", tc.person)
	}
}

// TestRatedAmended pins the members of rate's and amend's answers in
// their order, which the answers' bytes follow.
func TestRatedAmended(t *testing.T) {
	r := Report{Seq: 7, Action: "read", Success: "success"}
	learned := pyjson.Obj(pyjson.KV("x", 1))
	assert.Equal(t, `{"status":"rated","seq":7,"action":"read","reported":"success","rated":"failure","by":"op","learning":{"x":1}}`,
		string(pyjson.AppendCompact(nil, r.Rated("failure", "op", learned))))
	assert.Equal(t, `{"status":"amended","seq":7,"original":{"action":"read","success":"success"},"corrected":{"action":"edit","success":"failure"},"by":"op","retracted":{"x":1},"learning":{"x":1}}`,
		string(pyjson.AppendCompact(nil, r.Amended("edit", "failure", "op", learned, learned))))
}
