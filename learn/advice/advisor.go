package advice

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// An Advisor ranks and describes a workspace's next steps for one call,
// on either kind of model: v3 and v4 (package learn) and v5 (package
// learn/nextstep). The policy's refusals are the caller's: Allow says
// whether a ranked capability may be suggested, in ranking order, so the
// caller can record what it leaves out.
type Advisor struct {
	Place
	// Seq is the seq the call's event will have: advice remembered now is
	// named by it (AdvisoryID).
	Seq int64
	// TopN is how many suggestions are described.
	TopN int
	// Allow returns the names the policy lets be suggested, in the order
	// given.
	Allow func(names []string) []string
}

// allowed keeps what Allow allows of ranked, in order.
func allowed[T any](a Advisor, ranked []T, name func(T) string) []T {
	kept := a.Allow(Names(ranked, name))
	out := ranked[:0:0]
	for _, r := range ranked {
		if len(kept) > 0 && kept[0] == name(r) {
			out = append(out, r)
			kept = kept[1:]
		}
	}
	return out
}

// AdviseLearned ranks a learning model's (v3, v4) next steps from a
// capability for a context (RankLearned), less what the policy refuses,
// and describes the first TopN. It remembers nothing.
func (a Advisor) AdviseLearned(v *learn.State, from, context string, penalty map[string]float64, explore bool) ([]learn.Estimate, []pyjson.Value) {
	terms := learn.Terms(context)
	ranked := allowed(a, a.RankLearned(v, from, terms, penalty, explore), func(r learn.Estimate) string { return r.To })
	top := ranked[:min(a.TopN, len(ranked))]
	out := make([]pyjson.Value, len(top))
	for i, r := range top {
		out[i] = a.DescribeLearned(v, terms, from, r, penalty[r.To])
	}
	return ranked, out
}

// SuggestLearned is a v3 or v4 consult's advice from the cursor
// (AdviseLearned), remembered for attribution under the id it returns.
// explore adds the optimism that makes an agent that follows the top
// suggestion try what is little known; without it the ranking is the
// model's best estimate (a probe).
func (a Advisor) SuggestLearned(v *learn.State, cursor, context string, penalty map[string]float64, explore bool) ([]pyjson.Value, string) {
	ranked, out := a.AdviseLearned(v, cursor, context, penalty, explore)
	id := AdvisoryID(a.Seq, context)
	if len(ranked) > 0 {
		v.Remember(learn.Advisory{ID: id, Cursor: cursor, Top: ranked[0].To, Seq: a.Seq, Terms: learn.Terms(context)})
	}
	return out, id
}

// AdviseSteps ranks the next steps of a v5 episode (Place.Rank), less
// what the policy refuses, and describes the first TopN. A greedy ranking
// (a probe) shows no penalty. It remembers nothing but the episode's last
// ranking. The model's error (nextstep.Model.Err) is the caller's to
// check; the ranking stops at it.
func (a Advisor) AdviseSteps(m *nextstep.Model, ep *nextstep.Episode, context string, penalty map[string]float64, greedy bool) ([]nextstep.Scored, []pyjson.Value) {
	ranked, discovered := a.Rank(m, ep, penalty, greedy)
	if m.Err() != nil {
		return nil, nil
	}
	ranked = allowed(a, ranked, func(r nextstep.Scored) string { return r.To })
	top := ranked[:min(a.TopN, len(ranked))]
	out := make([]pyjson.Value, len(top))
	for i, r := range top {
		p := 0.0
		if !greedy {
			p = penalty[r.To]
		}
		out[i] = a.Describe(m, ep, context, r, p, discovered[r.To])
	}
	return ranked, out
}

// SuggestSteps is a v5 consult's advice for a task and context
// (AdviseSteps on the task's episode), remembered for attribution under
// the id it returns. A greedy consult (a probe) ranks by the estimate
// alone: no exploration bonus, no penalty; a report after it is the
// agent's own choice whatever it names.
func (a Advisor) SuggestSteps(v *Steps, m *nextstep.Model, task, context string, penalty map[string]float64, greedy bool) ([]pyjson.Value, string) {
	ep := v.TaskEpisode(task, context)
	ranked, out := a.AdviseSteps(m, ep, context, penalty, greedy)
	if m.Err() != nil {
		return nil, ""
	}
	id := AdvisoryID(a.Seq, context)
	if len(ranked) > 0 {
		v.Remember(learn.Advisory{ID: id, Cursor: ep.At, Top: ranked[0].To, Seq: a.Seq,
			Terms: ep.Terms, Task: ep.Task, Probe: greedy})
	}
	return out, id
}

// Names are the capabilities of a ranking, in order.
func Names[T any](ranked []T, name func(T) string) []string {
	names := make([]string, len(ranked))
	for i, r := range ranked {
		names[i] = name(r)
	}
	return names
}
