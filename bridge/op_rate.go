package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
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

// teach applies an outcome (or its retraction) of a past report's
// transition: to a learning model in the report's context, or as the
// reference's reinforcement (which cannot retract).
func (s *session) teach(r history.Report, action, success string, weight float64, retract bool) (pyjson.Value, error) {
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
	return advice.TeachReference(s.engine, s.model, r.From, action, success, retract), nil
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
	r, err := history.ReadReport(s.ws, argInt(c, "seq"), s.meta.Seq, s.manifest.Has)
	if err != nil {
		return pyjson.Value{}, err
	}
	success, w := c.Args.StrOf("success"), history.VerdictWeight(person(c))
	learned, err := s.teach(r, r.Action, success, w.Evidence, false)
	if err != nil {
		return pyjson.Value{}, err
	}
	out := r.Rated(success, s.by(c), learned)
	// A person's verdict on an action is evidence on what the agent
	// believes about that capability (v4 and later).
	if s.model.GovernsKnowledge() && outcome.Status(success) != outcome.Partial {
		b, err := s.book()
		if err != nil {
			return pyjson.Value{}, err
		}
		y, _ := learn.OutcomeValue(success)
		if ov, ok, err := s.attributeOutcome(b.About(r.Action), r.Action, y, w.Confidence, w.Kind, s.by(c), s.meta.Seq+1); err != nil {
			return pyjson.Value{}, err
		} else if ok {
			out = out.With("observations", ov)
		}
	}
	return viaAgent(out, c), nil
}

func opAmend(s *session, c Call) (pyjson.Value, error) {
	r, err := history.ReadReport(s.ws, argInt(c, "seq"), s.meta.Seq, s.manifest.Has)
	if err != nil {
		return pyjson.Value{}, err
	}
	action, success, err := r.Correct(s.manifest, s.ws.Path(workspace.RelPinned), c.Args.StrOf("action"), c.Args.StrOf("success"))
	if err != nil {
		return pyjson.Value{}, err
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
	return r.Amended(action, success, s.by(c), took, learned), nil
}
