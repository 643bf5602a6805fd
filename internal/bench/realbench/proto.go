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
	// Agents, when above 1, splits the stream among that many agents, each
	// with its own predictor: an episode is the agent's whose number is
	// its task id modulo Agents (a user's tasks stay with one agent).
	// Share makes each agent rank with the others' evidence as a capped
	// prior (nextstep.Model.SetFleet): a fleet learning together, against
	// the same agents isolated.
	Agents int
	Share  bool
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

// replayProto ranks every step with a fresh predictor (one per agent)
// before it learns it, storing the ranking in column col of steps (in
// stream order).
func replayProto(eps []Episode, p Proto, tools []string, steps []Step, col int) {
	n := max(1, p.Agents)
	models := make([]*nextstep.Model, n)
	for i := range models {
		models[i] = nextstep.New(p.Params)
	}
	var fleets []nextstep.Store
	if p.Share && n > 1 {
		for i := range models {
			var peers []nextstep.Store
			for j, o := range models {
				if j != i {
					peers = append(peers, o)
				}
			}
			fleets = append(fleets, nextstep.Pooled(p.Params, peers))
		}
	}
	k := 0
	for _, ep := range eps {
		a := (ep.Task%n + n) % n
		m := models[a]
		e := nextstep.NewEpisode(p.task(ep), learn.Terms(ep.Instruction))
		for _, c := range ep.Calls {
			if fleets != nil {
				m.SetFleet(fleets[a]) // what the others learned since
			}
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
