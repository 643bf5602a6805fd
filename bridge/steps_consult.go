package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// stepCandidates lists the steps a v5 model ranks from where the agent is:
// at a task's start every capability (which tool first is what a task's
// start asks), else the manifest's edges from the capability of the
// agent's last successful step (and the capability itself when the
// manifest connects it to itself), then the steps the agent's own calls
// succeeded to from there that the manifest lacks (discovered). Manifest
// order, then discovery's.
func (s *session) stepCandidates(m *nextstep.Model, at string) (names []string, discovered map[string]bool) {
	if at == nextstep.Start || !s.manifest.Has(at) {
		return s.manifest.Names(), nil
	}
	seen := map[string]bool{}
	for _, ei := range s.engine.Graph.Out(at) {
		if to := s.engine.Graph.Edges[ei].Dst; !seen[to] {
			seen[to] = true
			names = append(names, to)
		}
	}
	if !lacksStep(s, at, at) && !seen[at] {
		seen[at] = true
		names = append(names, at)
	}
	for _, c := range m.Successors(at) {
		if c.Successes > 0 && !seen[c.To] && s.manifest.Has(c.To) {
			seen[c.To] = true
			names = append(names, c.To)
			if discovered == nil {
				discovered = map[string]bool{}
			}
			discovered[c.To] = true
		}
	}
	return names, discovered
}

// deadEndPenalty is a v5 consult's penalty of matched dead ends: one unit
// of log-odds per dead end on each capability it names. Unlike the
// engine's penalty energy, a dead end's keywords evoke nothing: a dead end
// about one tool must not push down the tools its words happen to label.
func deadEndPenalty(s *session, hits []knowledge.DeadEndHit) penalty {
	p := penalty{energy: map[string]float64{}}
	for _, h := range hits {
		seen := map[string]bool{}
		for _, c := range knowledge.Strings(h.Entry, "capabilities") {
			if seen[c] || !s.manifest.Has(c) {
				continue
			}
			seen[c] = true
			if _, ok := p.energy[c]; !ok {
				p.order = append(p.order, c)
			}
			p.energy[c]++
		}
	}
	return p
}

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
	sum := sha256.Sum256([]byte(strconv.FormatInt(s.meta.Seq+1, 10) + "\x00" + context))
	id := hex.EncodeToString(sum[:8])
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
	cands, discovered := s.stepCandidates(m, ep.At)
	var ranked []nextstep.Scored
	if greedy {
		ranked = m.Greedy(ep, cands)
	} else {
		ranked = m.Rank(ep, cands)
		for i := range ranked {
			ranked[i].Score -= penalty[ranked[i].To]
		}
		sortScored(ranked)
	}
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
		out[i] = s.describeStep(m, ep, context, r, p, discovered[r.To])
	}
	if err := modelErr(m); err != nil {
		return nil, nil, err
	}
	return ranked, out, nil
}

func sortScored(r []nextstep.Scored) {
	slices.SortStableFunc(r, func(a, b nextstep.Scored) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		case a.To < b.To:
			return -1
		case a.To > b.To:
			return 1
		}
		return 0
	})
}

// describeStep is one suggestion of a v5 consult: the next step, the best
// two after it, and why, in whole counts.
func (s *session) describeStep(m *nextstep.Model, ep *nextstep.Episode, context string, r nextstep.Scored, penalty float64, discovered bool) pyjson.Value {
	ev := m.Explain(ep, r.To)
	chain := []string{r.To}
	for at := ep.Next(r.To); len(chain) < 3; {
		cands, _ := s.stepCandidates(m, at.At)
		next := m.Greedy(at, cands)
		if len(next) == 0 {
			break
		}
		chain = append(chain, next[0].To)
		at = at.Next(next[0].To)
	}
	where := stateName(ep.Prev)
	var next any // null: no next call counted yet
	if ev.Level != "" {
		members := []pyjson.Member{pyjson.KV("level", ev.Level), pyjson.KV("times", ev.Next), pyjson.KV("of", ev.Of)}
		if ev.Term != "" {
			members = append(members, pyjson.KV("term", learn.TermWord(context, ev.Term)))
		}
		next = pyjson.ObjectValue(members)
	}
	why := "untried here; ranked by the manifest's prior"
	switch ev.Level {
	case "task":
		why = "in this task, after " + where + ", the next successful step was " + r.To + " " + count(ev.Next, ev.Of)
	case "term":
		why = "in tasks whose context says " + quote(learn.TermWord(context, ev.Term)) + ", after " + where + ", the next successful step was " + r.To + " " + count(ev.Next, ev.Of)
	case "state":
		why = "after " + where + ", the next successful step was " + r.To + " " + count(ev.Next, ev.Of)
	case "any":
		why = r.To + " was " + count(ev.Next, ev.Of) + " successful steps, anywhere"
	}
	if n := ev.Successes + ev.Failures; n > 0 {
		here := "here"
		if ev.Anywhere {
			here = "anywhere"
		}
		why += "; it succeeded " + count(ev.Successes, n) + " " + here
	}
	if penalty > 0 {
		why += "; a dead end names it"
	}
	if discovered {
		why += "; a step the manifest lacks, learned from the agent's own calls"
	}
	members := []pyjson.Member{
		pyjson.KV("to", r.To),
		pyjson.KV("score", round(r.Score, 4)),
		pyjson.KV("p_success", round(ev.P, 4)),
		pyjson.KV("chain", chain),
		pyjson.KV("components", pyjson.Obj(
			pyjson.KV("penalty", round(0-penalty, 4)),
			pyjson.KV("uncertainty", round(ev.SD, 4)),
		)),
		pyjson.KV("evidence", pyjson.Obj(
			pyjson.KV("after", stateValue(ep.Prev)),
			pyjson.KV("next_step", next),
			pyjson.KV("outcomes", pyjson.Obj(pyjson.KV("successes", ev.Successes), pyjson.KV("failures", ev.Failures),
				pyjson.KV("anywhere", ev.Anywhere))),
		)),
		pyjson.KV("discovered", discovered),
		pyjson.KV("why", why),
	}
	if ei := s.engine.Graph.Find(ep.At, r.To); ei >= 0 {
		members = append(members, pyjson.KV("edge_index", ei))
	}
	return pyjson.ObjectValue(members)
}

// count is "9 of 12 times".
func count(k, n int64) string {
	return strconv.FormatInt(k, 10) + " of " + strconv.FormatInt(n, 10) + " times"
}

// stateName is a state of the episode for people: the task's start, a
// capability, or a capability that failed.
func stateName(state string) string {
	if state == nextstep.Start {
		return "the task's start"
	}
	if tool, failed := nextstep.FailedState(state); failed {
		return tool + " failed"
	}
	return state
}

// stateValue is a state of the episode for JSON: null at the task's
// start, else {"capability", "failed"}.
func stateValue(state string) any {
	if state == nextstep.Start {
		return nil
	}
	tool, failed := nextstep.FailedState(state)
	return pyjson.Obj(pyjson.KV("capability", tool), pyjson.KV("failed", failed))
}
