package bridge

import (
	"math"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// ModelV3 is ucs's first own learning model (package learn, learn.V3Params):
// success estimates per transition conditioned on the task's terms, ranked
// with an optimistic bonus for what is little known, with every suggestion
// explained and every report attributed to the advice it followed or not.
const ModelV3 = "v3"

// ModelV4 is v3 conditioned also on the capability the agent came from
// (learn.Context.After), from the agent's trail (learn.Trail): the default.
const ModelV4 = "v4"

// learnMember is the state file's member that holds the learned state of
// a workspace of a learning model (v3, v4: learn.State); it comes after
// the engine's members.
const learnMember = "learn"

// newLearnState is the learned state of a new workspace of a learning
// model.
func newLearnState(m *Model) *learn.State { return learn.NewState(learn.New(*m.params)) }

// learned returns the learned state, decoding it on first use; nil for a
// workspace of the reference's model.
func (s *session) learned() (*learn.State, error) {
	if !s.model.learns() {
		return nil, nil
	}
	if s.learnt == nil {
		if s.learnRaw == nil {
			s.learnt = newLearnState(s.model)
		} else {
			v, err := learn.DecodeState(s.learnRaw, *s.model.params)
			if err != nil {
				return nil, corrupt(err, relState)
			}
			s.learnt = v
		}
	}
	return s.learnt, nil
}

// appendLearnMember adds a learning model's state to an encoded state
// file, as its last member: the bytes as read when the call did not change
// it.
func (s *session) appendLearnMember(state []byte) []byte {
	if s.model.nextSteps() {
		state = append(state[:len(state)-1], `,"`+learnMember+`":`...)
		switch {
		case s.stepsSt != nil:
			state = s.stepsSt.AppendJSON(state)
		case s.learnRaw != nil:
			state = append(state, s.learnRaw...)
		default:
			state = advice.NewSteps().AppendJSON(state)
		}
		return append(state, '}')
	}
	if !s.model.learns() {
		return state
	}
	state = append(state[:len(state)-1], `,"`+learnMember+`":`...)
	switch {
	case s.learnt != nil:
		state = s.learnt.AppendJSON(state)
	case s.learnRaw != nil:
		state = append(state, s.learnRaw...)
	default:
		state = newLearnState(s.model).AppendJSON(state)
	}
	return append(state, '}')
}

// suggestLearned ranks the next steps from the cursor for a context, with a
// dead end's penalty (in log-odds) on the capabilities it names, and
// remembers the advice for attribution. explore adds the optimism that
// makes an agent that follows the top suggestion try what is little known;
// without it the ranking is the model's best estimate (a probe).
func (s *session) suggestLearned(context string, penalty map[string]float64, explore bool) ([]pyjson.Value, string, error) {
	v, err := s.learned()
	if err != nil {
		return nil, "", err
	}
	cursor := s.engine.Cursor.Node
	ranked, out := s.rankLearned(v, cursor, context, penalty, explore)
	id := advice.AdvisoryID(s.meta.Seq+1, context)
	if len(ranked) > 0 {
		v.Remember(learn.Advisory{ID: id, Cursor: cursor, Top: ranked[0].To, Seq: s.meta.Seq + 1, Terms: learn.Terms(context)})
	}
	return out, id, nil
}

// rankLearned ranks a learning model's next steps from a capability for a
// context (suggestLearned's, and consult --from's), and describes the
// first advisoryTopN. It remembers nothing.
func (s *session) rankLearned(v *learn.State, from, context string, penalty map[string]float64, explore bool) ([]learn.Estimate, []pyjson.Value) {
	terms := learn.Terms(context)
	ranked := s.place().RankLearned(v, from, terms, penalty, explore)
	ranked = withoutDenied(s, ranked, func(r learn.Estimate) string { return r.To })
	top := ranked[:min(advisoryTopN, len(ranked))]
	out := make([]pyjson.Value, len(top))
	for i, r := range top {
		out[i] = s.describeEstimate(v, terms, from, r, penalty[r.To])
	}
	return ranked, out
}

// describeEstimate is one suggested path of a learning model's consult:
// the next step, the best two steps after it (learn.State.Chain), and why.
func (s *session) describeEstimate(v *learn.State, terms []string, from string, r learn.Estimate, penalty float64) pyjson.Value {
	chain := v.Chain(s.engine.Graph, s.manifest, terms, from, r.To)
	ev := r.Evidence
	similar := pyjson.Obj(pyjson.KV("term", nil), pyjson.KV("successes", 0), pyjson.KV("of", 0))
	if ev.Term != "" {
		similar = pyjson.Obj(pyjson.KV("term", ev.Term), pyjson.KV("successes", round(ev.TermS, 2)), pyjson.KV("of", round(ev.TermN, 2)))
	}
	var last any
	if ev.N > 0 || ev.Last > 0 {
		last = ev.Last
	}
	why := "untried here; ranked by its prior and an exploration bonus"
	switch {
	case ev.TermN > 0:
		why = "succeeded " + timesOf(ev.TermS, ev.TermN) + " in contexts with \"" + ev.Term + "\" (" + timesOf(ev.S, ev.N) + " overall)"
	case ev.N > 0:
		why = "succeeded " + timesOf(ev.S, ev.N) + ", in other contexts"
	}
	if ev.AfterN > 0 {
		why += "; after " + ev.After + ": " + timesOf(ev.AfterS, ev.AfterN)
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
		pyjson.KV("why", why),
	}
	if ei := s.engine.Graph.Find(from, r.To); ei >= 0 {
		members = append(members, pyjson.KV("edge_index", ei))
	}
	return pyjson.ObjectValue(members)
}

// timesOf is a learning model's successes of its outcomes for people:
// "9 of 9 times" when the weights are whole (each report weighed 1), else
// "with weight 1.5 of 2": a partial counts half and a person's verdict
// more, so a weight is no number of times, and the text must not say it
// is.
func timesOf(s, n float64) string {
	if s == math.Trunc(s) && n == math.Trunc(n) {
		return countOf(s, n) + " times"
	}
	return "with " + countOf(s, n)
}

// countOf is "9 of 12" for whole counts, else "weight 1.5 of 2".
func countOf(s, n float64) string {
	if s == math.Trunc(s) && n == math.Trunc(n) {
		return fmtCount(s) + " of " + fmtCount(n)
	}
	return "weight " + fmtCount(s) + " of " + fmtCount(n)
}

func fmtCount(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// learnReport teaches the model a report's outcome: the transition from the
// cursor to the action, in the report's context, or else in the context
// of the advice the report follows (named by advisory_id, or the newest
// consult made at the same cursor), and attributes the outcome to that
// advice. It returns the answer's "learning" member, or nothing for a
// workspace of another model.
func (s *session) learnReport(in reportInput, before string, input pyjson.Value) (pyjson.Value, bool, error) {
	v, err := s.learned()
	if err != nil || v == nil {
		return pyjson.Value{}, false, err
	}
	id := input.StrOf("advisory_id")
	adv := v.Advice(id, before)
	if id != "" && adv < 0 {
		s.warn("advisory_id " + quote(id) + " names no recent consult; the report is not attributed")
	}
	terms := learn.Terms(in.Context)
	if in.Context == "" && adv >= 0 {
		terms = v.Advisories[adv].Terms
	}
	y, w := learn.OutcomeValue(in.Success)
	w *= in.Weight
	s.learnedAfter = v.Context(before, terms).After
	pb, pa, discovered := v.Learn(s.engine.Graph, s.manifest, terms, before, in.Action, in.Success, in.Weight, s.meta.Seq+1)
	members := []pyjson.Member{
		pyjson.KV("transition", before+" → "+in.Action),
		pyjson.KV("context_terms", orEmptyStrings(terms)),
		pyjson.KV("p_before", round(pb.P, 4)),
		pyjson.KV("p_after", round(pa.P, 4)),
		pyjson.KV("evidence_before", pyjson.Obj(pyjson.KV("successes", round(pb.Evidence.S, 2)), pyjson.KV("of", round(pb.Evidence.N, 2)))),
		pyjson.KV("evidence_after", pyjson.Obj(pyjson.KV("successes", round(pa.Evidence.S, 2)), pyjson.KV("of", round(pa.Evidence.N, 2)))),
		pyjson.KV("discovered", discovered),
	}
	if adv >= 0 {
		a, followed := v.Attribute(adv, in.Action, y, w)
		members = append(members, pyjson.KV("advisory_id", a.ID), pyjson.KV("followed_advice", followed))
		if s.model.governsKnowledge() && w > 0 && len(a.Observations) > 0 {
			confidence := min(1, in.Weight*selfReportConfidence)
			if ov, ok, err := s.attributeOutcome(a.Observations, in.Action, y, confidence, in.HasResult, s.meta.Seq+1); err != nil {
				return pyjson.Value{}, false, err
			} else if ok {
				members = append(members, pyjson.KV("observations", ov))
			}
		}
	}
	return pyjson.ObjectValue(members), true, nil
}

// advisoryPrecision is how advice fared: the success rate of reports that
// followed the top suggestion and of those that did not.
func advisoryPrecision(v *learn.State) pyjson.Value { return precisionOf(v.Followed, v.NotFollowed) }

// precisionOf is how advice fared, from the tallies of reports that
// followed the top suggestion and of those that did not.
func precisionOf(followed, notFollowed learn.Tally) pyjson.Value {
	rate := func(t learn.Tally) pyjson.Value {
		var r any
		if x, ok := t.Rate(); ok {
			r = round(x, 4)
		}
		return pyjson.Obj(pyjson.KV("successes", round(t.Successes, 2)), pyjson.KV("reports", round(t.Outcomes, 2)), pyjson.KV("rate", r))
	}
	return pyjson.Obj(pyjson.KV("followed", rate(followed)), pyjson.KV("not_followed", rate(notFollowed)))
}

func orEmptyStrings(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// modelStatus is what status adds for a workspace of ucs's own model: its
// name and how advice fared. Nothing for the reference's (parity).
func (s *session) modelStatus() (string, any) {
	p, err := s.precision()
	if err != nil || p == nil {
		return "", nil
	}
	return "learning", pyjson.Obj(pyjson.KV("model", s.meta.Model), pyjson.KV("advisory_precision", p))
}

// precision is how a learning model's advice fared (precisionOf); nil
// for the reference's model.
func (s *session) precision() (any, error) {
	if v, err := s.steps(); err != nil || v != nil {
		if err != nil {
			return nil, err
		}
		return precisionOf(v.Followed, v.Unfollowed), nil
	}
	v, err := s.learned()
	if err != nil || v == nil {
		return nil, err
	}
	return advisoryPrecision(v), nil
}
