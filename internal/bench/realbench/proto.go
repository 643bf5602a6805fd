package realbench

import (
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// A Proto is a next-step predictor (package nextstep) replayed in memory
// beside the baselines, on the same stream and with the same protocol as
// ucs: each episode begins at the task's start, each call is ranked before
// it is learned, in the context of the episode's instruction.
type Proto struct {
	Name   string
	Params nextstep.Params
	// TaskKey is what identifies a task to the predictor: "id" the
	// dataset's task id (what consult --task would pass), "context" the
	// exact instruction, "" nothing.
	TaskKey string
}

func (p Proto) task(ep Episode) string {
	switch p.TaskKey {
	case "id":
		return strconv.Itoa(ep.Task)
	case "context":
		return ep.Instruction
	}
	return ""
}

// replayProto ranks every step with a fresh predictor before it learns
// it, storing the ranking in column col of steps (in stream order).
func replayProto(eps []Episode, p Proto, tools []string, steps []Step, col int) {
	m := nextstep.New(p.Params)
	k := 0
	for _, ep := range eps {
		e := nextstep.NewEpisode(p.task(ep), learn.Terms(ep.Instruction))
		for _, c := range ep.Calls {
			ranked := m.Rank(e, tools)
			names := make([]string, 0, TopN)
			for _, r := range ranked[:min(TopN, len(ranked))] {
				names = append(names, r.To)
			}
			steps[k].Ranked[col] = names
			m.Learn(e, c.Tool, !c.Error)
			k++
		}
	}
}
