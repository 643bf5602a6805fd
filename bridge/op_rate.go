package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
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

var seqField = field.Field{Name: "seq", Type: field.Int, Flag: true, Positional: true, Required: true,
	Doc: "the journal sequence number of the report (ucs log --op report)"}

var byField = field.Field{Name: "by", Type: field.String, Flag: true, Text: true, Max: 256, Doc: "who makes it (default: UCS_AGENT_ID)"}

var rateSpec = Spec{
	Output:  rateOutput,
	Name:    "rate",
	Summary: "Record an operator's verdict on an earlier action: the strongest evidence",
	Long: `An operator (or a reviewing agent) says how an earlier action really went. The
verdict is learned on that action's transition, in its task's context, with
the confidence of a person's judgment (more than an observed result, more than
the agent's own report); the earlier evidence stays. The report is named by
its journal sequence number (ucs log --op report).`,
	Example:  "ucs rate 42 --success failure --note \"the page was a captcha\"",
	Mutating: true,
	Verdict:  true,
	Fields: []field.Field{seqField,
		{Name: "success", Type: field.String, Flag: true, Required: true, Enum: statusWords(outcome.Success, outcome.Partial, outcome.Failure), Doc: "the verdict"},
		{Name: "note", Type: field.String, Flag: true, Text: true, Max: field.NoteCap, Doc: "why"},
		byField,
	},
	run: opRate,
}

var amendSpec = Spec{
	Output:  amendOutput,
	Name:    "amend",
	Summary: "Correct a wrong report: another capability, another verdict",
	Long: `The report named by its journal sequence number was wrong: it named the wrong
capability (--action) or the wrong verdict (--success). A compensating event
takes the original outcome back from the learning model and learns the
corrected one in its place; the original stays in the journal, and log shows
both. (The reference's model, v2, cannot take an outcome back: the correction
is learned as a new outcome.)`,
	Example:  "ucs amend 42 --success failure --note \"the tests did not run\"\nucs amend 42 --action web_search",
	Mutating: true,
	Fields: []field.Field{seqField,
		{Name: "success", Type: field.String, Flag: true, Enum: statusWords(outcome.Success, outcome.Partial, outcome.Failure, outcome.Neutral), Doc: "the corrected verdict (default: the original's)"},
		{Name: "action", Type: field.String, Flag: true, Doc: "the capability actually used (default: the original's)"},
		{Name: "note", Type: field.String, Flag: true, Text: true, Max: field.NoteCap, Doc: "why"},
		byField,
	},
	check: func(c Call) error {
		if c.Args.StrOf("success") == "" && c.Args.StrOf("action") == "" {
			return badInput(fault.CodeMissingField, "give --success, --action or both", "amend needs a correction")
		}
		return nil
	},
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
	action, success, err := r.Correct(s.manifest, s.ws.Path(relPinned), c.Args.StrOf("action"), c.Args.StrOf("success"))
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

// rateOutput is the answer of rate.
var rateOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "\"rated\""},
	{Name: "seq", Type: field.Int, Always: true, Doc: "the journal sequence number of the report rated"},
	{Name: "action", Type: field.String, Always: true, Doc: "the capability the report named"},
	{Name: "reported", Type: field.String, Always: true, Doc: "the outcome reported"},
	{Name: "rated", Type: field.String, Always: true, Doc: "the outcome the verdict gives"},
	{Name: "by", Type: field.String, Always: true, Doc: "whose verdict it is (a verdict through the agent's tools is the agent's own)"},
	{Name: "learning", Type: field.Object, Always: true, Doc: "what the verdict changed in learning"},
	{Name: "observations", Type: field.Objects, Doc: "models v4 and later: the observations the verdict bears on"},
	{Name: "surface", Type: field.String, Doc: "agent: the verdict came through the agent's tools and weighs as its own"},
}

// amendOutput is the answer of amend.
var amendOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "\"amended\""},
	{Name: "seq", Type: field.Int, Always: true, Doc: "the journal sequence number of the report amended"},
	{Name: "original", Type: field.Object, Always: true, Doc: "the action and outcome as reported"},
	{Name: "corrected", Type: field.Object, Always: true, Doc: "the action and outcome as corrected"},
	{Name: "by", Type: field.String, Always: true, Doc: "who amended it"},
	{Name: "retracted", Type: field.Object, Always: true, Doc: "what of the original outcome's learning was taken back"},
	{Name: "learning", Type: field.Object, Always: true, Doc: "what the corrected outcome taught"},
	{Name: "surface", Type: field.String, Doc: "agent: the correction came through the agent's tools"},
}
