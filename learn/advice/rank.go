package advice

import (
	"slices"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// Rank ranks the next steps of an episode, best first, and says which of
// them the manifest lacks (learned from the agent's own calls). A greedy
// ranking (a probe) is by the estimate alone: no exploration bonus, no
// penalty; else a dead end's penalty (in log-odds) lowers the
// capabilities it names. The policy's refusals are the caller's.
func (p Place) Rank(m *nextstep.Model, ep *nextstep.Episode, penalty map[string]float64, greedy bool) ([]nextstep.Scored, map[string]bool) {
	cands, discovered := p.Candidates(m, ep.At)
	if greedy {
		return m.Greedy(ep, cands), discovered
	}
	ranked := m.Rank(ep, cands)
	for i := range ranked {
		ranked[i].Score -= penalty[ranked[i].To]
	}
	sortScored(ranked)
	return ranked, discovered
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

// Describe is one suggestion of a v5 consult: the next step, the best
// two after it, and why, in whole counts.
func (p Place) Describe(m *nextstep.Model, ep *nextstep.Episode, context string, r nextstep.Scored, penalty float64, discovered bool) pyjson.Value {
	ev := m.Explain(ep, r.To)
	chain := []string{r.To}
	for at := ep.Next(r.To); len(chain) < 3; {
		cands, _ := p.Candidates(m, at.At)
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
		why = "in tasks whose context says " + pyjson.Quote(learn.TermWord(context, ev.Term)) + ", after " + where + ", the next successful step was " + r.To + " " + count(ev.Next, ev.Of)
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
	round := pyjson.Round
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
	if ei := p.Graph.Find(ep.At, r.To); ei >= 0 {
		members = append(members, pyjson.KV("edge_index", ei))
	}
	if m.HasFleet() {
		// How much of what the step's ranking rests on the peers taught.
		members = append(members, pyjson.KV("fleet_share", round(m.FleetShare(ep, r.To), 4)))
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

// StepName is where a step starts, for people: a capability, or the
// task's start.
func StepName(at string) string {
	if at == nextstep.Start {
		return "(start)"
	}
	return at
}
