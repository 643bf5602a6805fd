package advice

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// Learned is what a workspace's learning model learned of each step, as
// Transitions lists it: v5's model m's pairs (Pairs, which the caller
// reads m.Err after), else v3's and v4's state v's model; nil when there
// is neither (v2's transitions are the action log's alone).
func (p Place) Learned(v *learn.State, m *nextstep.Model) learn.Learned {
	switch {
	case m != nil:
		return PairList(p.Pairs(m))
	case v != nil:
		return v.Model
	}
	return nil
}

// Transitions lists what m learned of each step (learn.Transitions),
// with the contexts and last-seen times of the window's reports: lines
// are the action log's last lines, contexts the journal's last reports.
// Ordered by from, then to.
func (p Place) Transitions(m learn.Learned, lines []pyjson.Value, contexts []ReportContext) []*learn.Transition {
	// The journal's reports are the action log's last lines (NewHistory),
	// as the window is: the first context is the line's at
	// total-len(contexts), the window's first line the one at
	// total-len(lines), so the one is the other's at len(lines)-len(contexts).
	offset := len(lines) - len(contexts)
	return learn.Transitions(p.Graph, m, p.WindowReports(lines, Texts(contexts), offset))
}
