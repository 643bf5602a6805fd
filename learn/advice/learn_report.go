package advice

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
)

// A Learning is what a report taught a workspace's model: the answer's
// "learning" member up to the advice's attribution, and what the caller
// needs to attribute the outcome to the advice's observations.
type Learning struct {
	Members []pyjson.Member
	// Advisory is the advice the report followed or not; nil when it
	// follows none. UnknownID says the report named an advisory_id that
	// names no recent consult.
	Advisory  *learn.Advisory
	UnknownID bool
	// Y and W are the outcome's success value and weight.
	Y, W float64
	// After is where the agent came from, as the learning saw it (v3,
	// v4); Step what a v5 report learned (nil: nothing), both for the
	// action log, so an amendment retracts the same.
	After string
	Step  *StepRecord
}

// LearnReport teaches a learning model (v3, v4) a report's outcome: the
// transition from the cursor to the action, in the report's context, or
// else in the context of the advice the report follows (named by id, or
// the newest consult made at the same cursor), and attributes the outcome
// to that advice. seq is the report's event.
func (p Place) LearnReport(v *learn.State, id, before, context, action, success string, weight float64, seq int64) Learning {
	round := pyjson.Round
	adv := v.Advice(id, before)
	terms := learn.Terms(context)
	if context == "" && adv >= 0 {
		terms = v.Advisories[adv].Terms
	}
	y, w := learn.OutcomeValue(success)
	w *= weight
	out := Learning{UnknownID: id != "" && adv < 0, Y: y, W: w, After: v.Context(before, terms).After}
	pb, pa, discovered := v.Learn(p.Graph, p.Manifest, terms, before, action, success, weight, seq)
	out.Members = []pyjson.Member{
		pyjson.KV("transition", before+" → "+action),
		pyjson.KV("context_terms", OrEmpty(terms)),
		pyjson.KV("p_before", round(pb.P, 4)),
		pyjson.KV("p_after", round(pa.P, 4)),
		pyjson.KV("evidence_before", pyjson.Obj(pyjson.KV("successes", round(pb.Evidence.S, 2)), pyjson.KV("of", round(pb.Evidence.N, 2)))),
		pyjson.KV("evidence_after", pyjson.Obj(pyjson.KV("successes", round(pa.Evidence.S, 2)), pyjson.KV("of", round(pa.Evidence.N, 2)))),
		pyjson.KV("discovered", discovered),
	}
	if adv >= 0 {
		a, followed := v.Attribute(adv, action, y, w)
		out.Advisory = &a
		out.Members = append(out.Members, pyjson.KV("advisory_id", a.ID), pyjson.KV("followed_advice", followed))
	}
	return out
}
