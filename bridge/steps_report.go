package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// learnStep teaches a v5 model a report: the step from where the agent
// was (the episode's state, never a tool that failed or the workspace's
// initial cursor) to the action, in the report's task. It is attributed to
// the advice it followed or not (named by advisory_id, or the newest
// consult made at the same place of the same task); a step that followed a
// consult's top suggestion (not a probe's) teaches the step's success but
// is not counted as what the agent chose, so advice cannot count for
// itself. It returns the answer's "learning" member.
func (s *session) learnStep(in reportInput, task string, input pyjson.Value) (pyjson.Value, bool, error) {
	v, err := s.steps()
	if err != nil || v == nil {
		return pyjson.Value{}, false, err
	}
	m := s.stepsModel(v)
	ep := v.TaskEpisode(task, in.Context)
	var adv *learn.Advisory
	advIdx := -1
	if id := input.StrOf("advisory_id"); id != "" {
		for i := range v.Advisories {
			if v.Advisories[i].ID == id {
				adv, advIdx = &v.Advisories[i], i
			}
		}
		if adv == nil {
			s.warn("advisory_id " + quote(id) + " names no recent consult; the report is not attributed")
		}
	} else if n := len(v.Advisories); n > 0 && v.Advisories[n-1].Cursor == ep.At && v.Advisories[n-1].Task == ep.Task {
		adv, advIdx = &v.Advisories[n-1], n-1
	}
	if in.Context == "" && adv != nil && len(ep.Terms) == 0 {
		ep.Terms = adv.Terms
	}
	y, w := learn.OutcomeValue(in.Success)
	w *= in.Weight
	followed := adv != nil && in.Action == adv.Top
	own := !followed || adv.Probe
	from := ep.At
	state := ep.State()
	members := []pyjson.Member{
		pyjson.KV("transition", advice.StepName(from)+" → "+in.Action),
		pyjson.KV("task", advice.TaskName(ep.Task)),
		pyjson.KV("context_terms", orEmptyStrings(ep.Terms)),
	}
	cands, _ := s.place().Candidates(m, from)
	before := m.Explain(ep, in.Action)
	discovered := false
	switch {
	case outcome.Status(in.Success) == outcome.Neutral || w <= 0:
		// The agent says where it is: the episode moves there, nothing
		// is learned.
		ep.Locate(ep.Prev, in.Action)
		if task == "" && in.Context == "" {
			v.Located = in.Action
		}
		members = append(members, pyjson.KV("learned", false))
	default:
		ok := y >= 0.5
		discovered = ok && from != nextstep.Start && s.place().LacksStep(from, in.Action) && !advice.HadSuccess(m, from, in.Action)
		m.Observe(ep, cands, in.Action, y, w, own)
		s.stepLearned = &advice.StepRecord{State: state, Own: own}
		after := m.Explain(nextstep.RestoreState(state, ep.Terms), in.Action)
		members = append(members,
			pyjson.KV("learned", true),
			pyjson.KV("counted_as_choice", own),
			pyjson.KV("p_before", round(before.P, 4)),
			pyjson.KV("p_after", round(after.P, 4)),
			pyjson.KV("outcomes_before", pyjson.Obj(pyjson.KV("successes", before.Successes), pyjson.KV("failures", before.Failures))),
			pyjson.KV("outcomes_after", pyjson.Obj(pyjson.KV("successes", after.Successes), pyjson.KV("failures", after.Failures))),
		)
	}
	members = append(members, pyjson.KV("discovered", discovered))
	if err := modelErr(m); err != nil {
		return pyjson.Value{}, false, err
	}
	if adv != nil {
		if w > 0 {
			c := &v.Unfollowed
			if followed {
				c = &v.Followed
			}
			c.Add(y, w)
		}
		members = append(members, pyjson.KV("advisory_id", adv.ID), pyjson.KV("followed_advice", followed))
		if w > 0 && len(adv.Observations) > 0 {
			confidence := min(1, in.Weight*selfReportConfidence)
			if ov, ok, err := s.attributeOutcome(adv.Observations, in.Action, y, confidence, in.HasResult, s.meta.Seq+1); err != nil {
				return pyjson.Value{}, false, err
			} else if ok {
				members = append(members, pyjson.KV("observations", ov))
			}
		}
		v.Advisories = append(v.Advisories[:advIdx], v.Advisories[advIdx+1:]...)
	}
	return pyjson.ObjectValue(members), true, nil
}

// teachStep applies a rating or an amendment of a past v5 report: a
// rating's verdict teaches the step's success at the state the report was
// learned in; an amendment (retract) takes the report's count back out.
func (s *session) teachStep(v *advice.Steps, r pastReport, action, success string, weight float64, retract bool) (pyjson.Value, error) {
	m := s.stepsModel(v)
	rec, ok := advice.StepRecordOf(r.Line)
	if !ok {
		return pyjson.Obj(pyjson.KV("transition", r.From+" → "+action), pyjson.KV("retracted", false),
			pyjson.KV("note", "the report taught the model nothing (neutral, or before the model)")), nil
	}
	before, after, ep := advice.Teach(m, rec, learn.Terms(r.Context), action, success, weight, retract, r.Retracted)
	if err := modelErr(m); err != nil {
		return pyjson.Value{}, err
	}
	return pyjson.Obj(pyjson.KV("transition", advice.StepName(ep.At)+" → "+action), pyjson.KV("retracted", retract),
		pyjson.KV("p_before", round(before.P, 4)), pyjson.KV("p_after", round(after.P, 4)),
		pyjson.KV("outcomes_after", pyjson.Obj(pyjson.KV("successes", after.Successes), pyjson.KV("failures", after.Failures)))), nil
}
