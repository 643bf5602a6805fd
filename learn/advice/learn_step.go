package advice

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// LearnStep teaches a v5 model a report: the step from where the agent
// was (the episode's state, never a tool that failed or the workspace's
// initial cursor) to the action, in the report's task. It is attributed to
// the advice it followed or not (named by id, or the newest consult made
// at the same place of the same task), which it counts in the state's
// tallies and forgets; a step that followed a consult's top suggestion
// (not a probe's) teaches the step's success but is not counted as what
// the agent chose, so advice cannot count for itself. The model's error
// (nextstep.Model.Err) tells whether it read its evidence.
func (p Place) LearnStep(v *Steps, m *nextstep.Model, task, context, id, action, success string, weight float64) Learning {
	round := pyjson.Round
	ep := v.TaskEpisode(task, context)
	var adv *learn.Advisory
	advIdx := -1
	unknown := false
	if id != "" {
		for i := range v.Advisories {
			if v.Advisories[i].ID == id {
				adv, advIdx = &v.Advisories[i], i
			}
		}
		unknown = adv == nil
	} else if n := len(v.Advisories); n > 0 && v.Advisories[n-1].Cursor == ep.At && v.Advisories[n-1].Task == ep.Task {
		adv, advIdx = &v.Advisories[n-1], n-1
	}
	if context == "" && adv != nil && len(ep.Terms) == 0 {
		ep.Terms = adv.Terms
	}
	y, w := learn.OutcomeValue(success)
	w *= weight
	out := Learning{UnknownID: unknown, Y: y, W: w}
	followed := adv != nil && action == adv.Top
	own := !followed || adv.Probe
	from := ep.At
	state := ep.State()
	members := []pyjson.Member{
		pyjson.KV("transition", StepName(from)+" → "+action),
		pyjson.KV("task", TaskName(ep.Task)),
		pyjson.KV("context_terms", OrEmpty(ep.Terms)),
	}
	cands, _ := p.Candidates(m, from)
	before := m.Explain(ep, action)
	discovered := false
	switch {
	case outcome.Status(success) == outcome.Neutral || w <= 0:
		// The agent says where it is: the episode moves there, nothing
		// is learned.
		ep.Locate(ep.Prev, action)
		if task == "" && context == "" {
			v.Located = action
		}
		members = append(members, pyjson.KV("learned", false))
	default:
		ok := y >= 0.5
		discovered = ok && from != nextstep.Start && p.LacksStep(from, action) && !HadSuccess(m, from, action)
		m.Observe(ep, cands, action, y, w, own)
		out.Step = &StepRecord{State: state, Own: own}
		after := m.Explain(nextstep.RestoreState(state, ep.Terms), action)
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
	if adv != nil {
		if w > 0 {
			c := &v.Unfollowed
			if followed {
				c = &v.Followed
			}
			c.Add(y, w)
		}
		members = append(members, pyjson.KV("advisory_id", adv.ID), pyjson.KV("followed_advice", followed))
		a := *adv
		out.Advisory = &a
		v.Advisories = append(v.Advisories[:advIdx], v.Advisories[advIdx+1:]...)
	}
	out.Members = members
	return out
}
