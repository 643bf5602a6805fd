package history

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// The PP trends.
const (
	TrendImproving    = "improving"
	TrendDeclining    = "declining"
	TrendStable       = "stable"
	TrendInsufficient = "insufficient_data"
)

// PPTrend compares the health of the first and last of PP snapshots (the
// ten newest, oldest first): improving or declining past ±0.05, else
// stable; fewer than two say nothing.
func PPTrend(snaps []pyjson.Value) string {
	if len(snaps) < 2 {
		return TrendInsufficient
	}
	first, _ := snaps[0].GetOr("health", pyjson.IntValue(0)).Float()
	last, _ := snaps[len(snaps)-1].GetOr("health", pyjson.IntValue(0)).Float()
	switch delta := last - first; {
	case delta > 0.05:
		return TrendImproving
	case delta < -0.05:
		return TrendDeclining
	}
	return TrendStable
}

// ReadTrend is the PP trend of the transaction's ten newest PP snapshots.
func ReadTrend(tx *workspace.Tx) (string, error) {
	snaps, err := tx.Tail(workspace.RelPPHistory, 10)
	return PPTrend(snaps), err
}
