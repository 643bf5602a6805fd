package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// Human-in-the-loop evidence. rate records an operator's verdict on an
// earlier action, the strongest evidence there is; amend corrects a report
// that was wrong (another capability, another verdict) by a compensating
// event: the learning model takes the original outcome back and learns the
// corrected one. The journal is never rewritten: log shows the original
// report, the rating or correction, and who made it.

var rateSpec = Spec{
	Op:  contract.Rate,
	run: opRate,
}

var amendSpec = Spec{
	Op:  contract.Amend,
	run: opAmend,
}

// A pastReport is an earlier report as rate and amend teach it again.
type pastReport struct {
	history.Report
	// Retracted says an amendment took the report's outcome back, so what
	// it teaches next replaces it.
	Retracted bool
}

// pastReport reads the report event seq and the action-log line it wrote.
func (s *session) pastReport(seq int64) (pastReport, error) {
	r, err := history.ReadReport(s.ws, seq, s.meta.Seq, s.manifest.Has)
	return pastReport{Report: r}, err
}

// teach applies an outcome (or its retraction) of a past report's
// transition: to a learning model in the report's context, or as the
// reference's reinforcement (which cannot retract).
func (s *session) teach(r pastReport, action, success string, weight float64, retract bool) (pyjson.Value, error) {
	if v, err := s.steps(); err != nil {
		return pyjson.Value{}, err
	} else if v != nil {
		return s.teachStep(v, r, action, success, weight, retract)
	}
	if v, err := s.learned(); err != nil {
		return pyjson.Value{}, err
	} else if v != nil {
		return advice.TeachLearned(v, s.engine.Graph, s.manifest, r.Context, r.After, r.From, action, success, weight, s.meta.Seq+1, retract), nil
	}
	if retract {
		return pyjson.Obj(pyjson.KV("transition", r.From+" → "+action), pyjson.KV("retracted", false),
			pyjson.KV("note", "the reference's model cannot take an outcome back")), nil
	}
	if ei := s.engine.Graph.Find(r.From, action); ei >= 0 {
		e := s.engine
		return e.Credit(ei, s.model.Reward(success, e.Graph.Edges[ei].U), 1).Value(e), nil
	}
	return pyjson.Obj(pyjson.KV("transition", r.From+" → "+action), pyjson.KV("note", "no edge: nothing reinforced")), nil
}

// by is who makes a verdict: the by it names, else the agent; through the
// agent's surface always the agent, whoever it names.
func (s *session) by(c Call) string {
	if b := c.Args.StrOf("by"); b != "" && person(c) {
		return b
	}
	return s.agentID
}

// person reports whether a verdict weighs as a person's: it came through
// the operator's surface (Spec.Verdict), as its recorded args say.
func person(c Call) bool { return c.Args.StrOf(surfaceArg) != SurfaceAgent }

// viaAgent marks the answer of a verdict that came through the agent's
// surface, so the agent sees how it was weighed.
func viaAgent(out pyjson.Value, c Call) pyjson.Value {
	if person(c) {
		return out
	}
	return out.With(surfaceArg, SurfaceAgent)
}

func opRate(s *session, c Call) (pyjson.Value, error) {
	r, err := s.pastReport(argInt(c, "seq"))
	if err != nil {
		return pyjson.Value{}, err
	}
	success := c.Args.StrOf("success")
	// A person's verdict is the strongest evidence; the agent's own, on
	// its surface, weighs as its report did.
	weight, confidence, kind := advice.RatingConfidence/advice.SelfReportConfidence, advice.RatingConfidence, belief.FromRating
	if !person(c) {
		weight, confidence, kind = 1, advice.SelfReportConfidence, belief.FromReport
	}
	learned, err := s.teach(r, r.Action, success, weight, false)
	if err != nil {
		return pyjson.Value{}, err
	}
	out := pyjson.Obj(pyjson.KV("status", "rated"), pyjson.KV("seq", r.Seq), pyjson.KV("action", r.Action),
		pyjson.KV("reported", r.Success), pyjson.KV("rated", success), pyjson.KV("by", s.by(c)),
		pyjson.KV("learning", learned))
	// A person's verdict on an action is evidence on what the agent
	// believes about that capability (v4 and later).
	if s.model.GovernsKnowledge() && outcome.Status(success) != outcome.Partial {
		b, err := s.book()
		if err != nil {
			return pyjson.Value{}, err
		}
		y, _ := learn.OutcomeValue(success)
		if ov, ok, err := s.attributeOutcome(b.About(r.Action), r.Action, y, confidence, kind, s.by(c), s.meta.Seq+1); err != nil {
			return pyjson.Value{}, err
		} else if ok {
			out = out.With("observations", ov)
		}
	}
	return viaAgent(out, c), nil
}

func opAmend(s *session, c Call) (pyjson.Value, error) {
	r, err := s.pastReport(argInt(c, "seq"))
	if err != nil {
		return pyjson.Value{}, err
	}
	action, success := r.Action, r.Success
	if a := c.Args.StrOf("action"); a != "" {
		if !s.manifest.Has(a) {
			return pyjson.Value{}, badInput(fault.CodeUnknownCapability, s.manifest.UnknownHint(a, s.ws.Path(relPinned)), "%s is not a capability", pyjson.Quote(a))
		}
		action = a
	}
	if v := c.Args.StrOf("success"); v != "" {
		success = v
	}
	if action == r.Action && success == r.Success {
		return pyjson.Value{}, badInput(fault.CodeInvalidValue, "give a verdict or capability that differs from the report's", "the correction changes nothing")
	}
	took, err := s.teach(r, r.Action, r.Success, r.Weight, true)
	if err != nil {
		return pyjson.Value{}, err
	}
	r.Retracted = true
	learned, err := s.teach(r, action, success, r.Weight, false)
	if err != nil {
		return pyjson.Value{}, err
	}
	return pyjson.Obj(pyjson.KV("status", "amended"), pyjson.KV("seq", r.Seq),
		pyjson.KV("original", pyjson.Obj(pyjson.KV("action", r.Action), pyjson.KV("success", r.Success))),
		pyjson.KV("corrected", pyjson.Obj(pyjson.KV("action", action), pyjson.KV("success", success))),
		pyjson.KV("by", s.by(c)), pyjson.KV("retracted", took), pyjson.KV("learning", learned)), nil
}
