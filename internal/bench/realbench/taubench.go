package realbench

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// tauTrajectory is what ReduceTauBench reads of one entry of a tau-bench
// historical trajectory file (historical_trajectories/*.json): the task,
// the trial, the reward, the user's instruction and the messages. Every
// other field is ignored.
type tauTrajectory struct {
	TaskID *int     `json:"task_id"`
	Trial  int      `json:"trial"`
	Reward float64  `json:"reward"`
	Info   tauInfo  `json:"info"`
	Traj   []tauMsg `json:"traj"`
}

type tauInfo struct {
	Task struct {
		Instruction string `json:"instruction"`
	} `json:"task"`
}

type tauMsg struct {
	Role       string        `json:"role"`
	ToolCalls  []tauToolCall `json:"tool_calls"`
	ToolCallID string        `json:"tool_call_id"`
	Content    *string       `json:"content"`
}

type tauToolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
}

// ReduceTauBench reads a tau-bench trajectory file and keeps, per
// trajectory, the task id, trial, reward and instruction, and per tool call
// (in the order the assistant made them) the tool's name and whether it
// answered with an error.
//
// A tool answered with an error when its result (the "tool" message that
// answers the call) begins, after white space, with "Error": that is how
// tau-bench's environments report a failed action ("Error: payment amount
// does not add up", "Error: not enough seats on flight"). A call with no
// result at all (or a null one) is counted as an error too: the agent got
// nothing from it.
func ReduceTauBench(r io.Reader) ([]Episode, error) {
	var raw []tauTrajectory
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("tau-bench trajectories: %v", err)
	}
	eps := make([]Episode, 0, len(raw))
	for i, t := range raw {
		if t.TaskID == nil {
			return nil, fmt.Errorf("trajectory %d: no task_id", i)
		}
		ep := Episode{Task: *t.TaskID, Trial: t.Trial, Reward: t.Reward, Instruction: t.Info.Task.Instruction, Calls: []Call{}}
		// A tool message answers the oldest call still waiting for its
		// answer with the same tool_call_id (else the oldest): the recorded
		// ids are not unique within a trajectory (the same id recurs for
		// later calls), but answers follow their calls in order.
		type waiting struct {
			id   string
			call int
		}
		var pending []waiting
		for _, m := range t.Traj {
			switch m.Role {
			case "assistant":
				for _, c := range m.ToolCalls {
					pending = append(pending, waiting{c.ID, len(ep.Calls)})
					ep.Calls = append(ep.Calls, Call{Tool: c.Function.Name, Error: true})
				}
			case "tool":
				if len(pending) == 0 {
					continue
				}
				k := 0
				for j, w := range pending {
					if w.id == m.ToolCallID {
						k = j
						break
					}
				}
				ep.Calls[pending[k].call].Error = m.Content == nil || strings.HasPrefix(strings.TrimSpace(*m.Content), "Error")
				pending = append(pending[:k], pending[k+1:]...)
			}
		}
		if err := ep.validate(); err != nil {
			return nil, fmt.Errorf("trajectory %d (task %d, trial %d): %v", i, ep.Task, ep.Trial, err)
		}
		eps = append(eps, ep)
	}
	return eps, nil
}
