package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// suggestSteps ranks a v5 workspace's next steps for a task and context,
// with a dead end's penalty on the capabilities it names, and remembers
// the advice for attribution. A greedy consult (a probe) ranks by the
// estimate alone: no exploration bonus, no penalty; a report after it is
// the agent's own choice whatever it names.
func (s *session) suggestSteps(task, context string, penalty map[string]float64, greedy bool) ([]pyjson.Value, string, error) {
	v, err := s.steps()
	if err != nil {
		return nil, "", err
	}
	ep := v.TaskEpisode(task, context)
	ranked, out, err := s.rankSteps(v, ep, context, penalty, greedy)
	if err != nil {
		return nil, "", err
	}
	id := advice.AdvisoryID(s.meta.Seq+1, context)
	if len(ranked) > 0 {
		v.Remember(learn.Advisory{ID: id, Cursor: ep.At, Top: ranked[0].To, Seq: s.meta.Seq + 1,
			Terms: ep.Terms, Task: ep.Task, Probe: greedy})
	}
	return out, id, nil
}

// rankSteps ranks the next steps of an episode (suggestSteps', and
// consult --from's on an episode of its own), and describes the first
// advisoryTopN. It remembers nothing but the episode's last ranking.
func (s *session) rankSteps(v *advice.Steps, ep *nextstep.Episode, context string, penalty map[string]float64, greedy bool) ([]nextstep.Scored, []pyjson.Value, error) {
	m := s.stepsModel(v)
	place := s.place()
	ranked, discovered := place.Rank(m, ep, penalty, greedy)
	if err := modelErr(m); err != nil {
		return nil, nil, err
	}
	ranked = withoutDenied(s, ranked, func(r nextstep.Scored) string { return r.To })
	top := ranked[:min(advisoryTopN, len(ranked))]
	out := make([]pyjson.Value, len(top))
	for i, r := range top {
		p := 0.0
		if !greedy {
			p = penalty[r.To]
		}
		out[i] = place.Describe(m, ep, context, r, p, discovered[r.To])
	}
	if err := modelErr(m); err != nil {
		return nil, nil, err
	}
	return ranked, out, nil
}
