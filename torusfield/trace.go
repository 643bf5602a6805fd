package torusfield

import "github.com/unified-cognitive-substrate/ucs/internal/pyjson"

// A TraceStep records one traversal of an edge.
type TraceStep struct {
	T         int
	Src, Dst  string
	EdgeIndex int
	Reward    float64
	Cost      float64
	Novelty   float64
	// NoveltyIsInt keeps Python's int novelty an int in the state file.
	NoveltyIsInt bool
}

// Trace lengths of the reference: the θ log keeps 500 steps in memory, of
// which the state file keeps the last 50; the φ log keeps 100 records.
const (
	maxThetaLog   = 500
	maxPhiLog     = 100
	thetaTailSave = 50
)

// A TraceLog is the engine's rolling memory of what it did: θ steps, from
// which the harvester detects patterns, and φ records.
type TraceLog struct {
	Theta []TraceStep
	Phi   []pyjson.Value
}

func (l *TraceLog) appendTheta(s TraceStep) {
	l.Theta = append(l.Theta, s)
	if len(l.Theta) > maxThetaLog {
		l.Theta = l.Theta[1:]
	}
}

func (l *TraceLog) appendPhi(r pyjson.Value) {
	l.Phi = append(l.Phi, r)
	if len(l.Phi) > maxPhiLog {
		l.Phi = l.Phi[1:]
	}
}
