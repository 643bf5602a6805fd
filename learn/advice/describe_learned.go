package advice

import (
	"github.com/unified-cognitive-substrate/ucs/internal/phrase"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
)

// DescribeLearned is one suggested path of a learning model's (v3, v4)
// consult: the next step from a capability, the best two steps after it
// (learn.State.Chain), its components and evidence, and why
// (LearnedWhy).
func (p Place) DescribeLearned(v *learn.State, terms []string, from string, r learn.Estimate, penalty float64) pyjson.Value {
	round := pyjson.Round
	chain := v.Chain(p.Graph, p.Manifest, terms, from, r.To)
	ev := r.Evidence
	similar := pyjson.Obj(pyjson.KV("term", nil), pyjson.KV("successes", 0), pyjson.KV("of", 0))
	if ev.Term != "" {
		similar = pyjson.Obj(pyjson.KV("term", ev.Term), pyjson.KV("successes", round(ev.TermS, 2)), pyjson.KV("of", round(ev.TermN, 2)))
	}
	var last any
	if ev.N > 0 || ev.Last > 0 {
		last = ev.Last
	}
	evidence := []pyjson.Member{
		pyjson.KV("similar_contexts", similar),
		pyjson.KV("all_contexts", pyjson.Obj(pyjson.KV("successes", round(ev.S, 2)), pyjson.KV("of", round(ev.N, 2)))),
		pyjson.KV("last_report", last),
	}
	if v.KeepsTrail() {
		var after any // null: where the agent came from is unknown (or another task)
		if ev.After != "" {
			after = pyjson.Obj(pyjson.KV("capability", ev.After), pyjson.KV("successes", round(ev.AfterS, 2)), pyjson.KV("of", round(ev.AfterN, 2)))
		}
		evidence = append(evidence, pyjson.KV("after", after))
	}
	members := []pyjson.Member{
		pyjson.KV("to", r.To),
		pyjson.KV("score", round(r.Score, 4)),
		pyjson.KV("p_success", round(r.P, 4)),
		pyjson.KV("chain", chain),
		pyjson.KV("components", pyjson.Obj(
			pyjson.KV("estimate", round(r.LogOdds-r.Prior, 4)),
			pyjson.KV("prior", round(r.Prior, 4)),
			pyjson.KV("exploration_bonus", round(r.Bonus, 4)),
			pyjson.KV("penalty", round(0-penalty, 4)),
			pyjson.KV("uncertainty", round(r.SD, 4)),
		)),
		pyjson.KV("evidence", pyjson.ObjectValue(evidence)),
		pyjson.KV("discovered", r.Discovered),
		pyjson.KV("why", LearnedWhy(ev)),
	}
	if ei := p.Graph.Find(from, r.To); ei >= 0 {
		members = append(members, pyjson.KV("edge_index", ei))
	}
	return pyjson.ObjectValue(members)
}

// Precision is how advice fared, from the tallies of reports that
// followed the top suggestion and of those that did not: status's
// advisory_precision.
func Precision(followed, notFollowed learn.Tally) pyjson.Value {
	rate := func(t learn.Tally) pyjson.Value {
		var r any
		if x, ok := t.Rate(); ok {
			r = pyjson.Round(x, 4)
		}
		return pyjson.Obj(pyjson.KV("successes", pyjson.Round(t.Successes, 2)), pyjson.KV("reports", pyjson.Round(t.Outcomes, 2)), pyjson.KV("rate", r))
	}
	return pyjson.Obj(pyjson.KV("followed", rate(followed)), pyjson.KV("not_followed", rate(notFollowed)))
}

// OrEmpty is a list of strings for JSON: [] rather than null.
func OrEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// LearnedWhy is why a learning model (v3, v4) suggests a step, its counts
// told as weights where they are (phrase.TimesOf).
func LearnedWhy(ev learn.Evidence) string {
	why := "untried here; ranked by its prior and an exploration bonus"
	switch {
	case ev.TermN > 0:
		why = "succeeded " + phrase.TimesOf(ev.TermS, ev.TermN) + " in contexts with \"" + ev.Term + "\" (" + phrase.TimesOf(ev.S, ev.N) + " overall)"
	case ev.N > 0:
		why = "succeeded " + phrase.TimesOf(ev.S, ev.N) + ", in other contexts"
	}
	if ev.AfterN > 0 {
		why += "; after " + ev.After + ": " + phrase.TimesOf(ev.AfterS, ev.AfterN)
	}
	return why
}
