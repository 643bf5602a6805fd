package advice

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/learn"
)

// RankLearned ranks a learning model's (v3, v4) next steps from a
// capability, best first, in the context of the task's terms and of where
// the agent came from (learn.State.Context), with a dead end's penalty
// (in log-odds) on the capabilities it names. explore adds the optimism
// that makes an agent that follows the top suggestion try what is little
// known; without it the ranking is the model's best estimate (a probe).
// The policy's refusals are the caller's.
func (p Place) RankLearned(v *learn.State, from string, terms []string, penalty map[string]float64, explore bool) []learn.Estimate {
	return learn.RankNextSteps(p.Graph, p.Manifest, v.Model, v.Context(from, terms), from, penalty, explore)
}

// AdvisoryID names the advice a consult gives, for the report that
// follows it (advisory_id): a digest of the event the consult will be and
// its context, so that a replay names it the same.
func AdvisoryID(seq int64, context string) string {
	sum := sha256.Sum256([]byte(strconv.FormatInt(seq, 10) + "\x00" + context))
	return hex.EncodeToString(sum[:8])
}
