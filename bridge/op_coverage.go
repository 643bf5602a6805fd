package bridge

import (
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/learn"
)

// coverage tells how ready the memory is for a task before the agent
// starts it (OpenSentience's coverage check): what knowledge it holds for
// the task (methodology, judgment, dead ends, found as consult finds them)
// and how much experience (reported outcomes of the capabilities the task
// evokes), as a score, the gaps and a recommendation. It reads only: no
// warm-up steps, no advisory, nothing journaled.

// Tuning of coverage: how much of each counts as full.
const (
	coverageKnowledgeFull  = 3 // methodology, judgment and dead-end hits
	coverageExperienceFull = 5 // weighted outcomes of one capability
)

var coverageSpec = Spec{
	Output:  coverageOutput,
	Name:    "coverage",
	Summary: "How ready the memory is for a task: a score, the gaps, a recommendation",
	Long: `Reads what consult would find for the task (the capabilities it evokes, the
methodology, judgment and dead ends that fit) and how many outcomes of those
capabilities were reported, without moving the engine or recording anything.
The score (0 to 1) averages knowledge (hits, full at 3) and experience (the
mean over the capabilities of their outcomes, full at 5; a v2 workspace keeps
no such counts and scores knowledge alone).`,
	Peers:   true, // the fleet's knowledge counts too
	Example: "ucs coverage --context \"deploy the staging cluster\"\nucs coverage --context \"research pricing\" --capabilities web_fetch",
	Fields: []field.Field{
		{Name: "context", Type: field.String, Required: true, Flag: true, Text: true, Max: field.ContextCap, Doc: "the task"},
		{Name: "capabilities", Type: field.Strings, Flag: true, Doc: "capability names the task uses besides those the context evokes"},
	},
	run: opCoverage,
}

// opCoverage measures the memory's coverage of a task (coverageSpec).
func opCoverage(s *session, c Call) (pyjson.Value, error) {
	context := c.Args.StrOf("context")
	resolved, err := s.taskCapabilities(c, newKeywords(s.manifest))
	if err != nil {
		return pyjson.Value{}, err
	}

	found, err := s.coverageKnowledge(context, resolved)
	if err != nil {
		return pyjson.Value{}, err
	}
	hits := found.methodology + found.judgment + found.deadEnds
	knowScore := min(1, float64(hits)/coverageKnowledgeFull)

	var gaps []string
	if len(resolved) == 0 {
		gaps = append(gaps, "no capability of the manifest matches the task: name the ones it uses with --capabilities")
	}
	if found.methodology == 0 {
		gaps = append(gaps, "no methodology for this kind of task")
	}
	if found.judgment == 0 {
		gaps = append(gaps, "no judgment recorded for this kind of task")
	}

	experience := pyjson.NullValue()
	score := knowScore
	v, err := s.learned()
	if err != nil {
		return pyjson.Value{}, err
	}
	sv, err := s.steps()
	if err != nil {
		return pyjson.Value{}, err
	}
	if v != nil || sv != nil {
		// Outcomes of reaching the capability from anywhere.
		outcomes := func(to string) (succ, n float64) {
			if sv != nil {
				k, f := s.stepsModel(sv).Outcomes(to)
				return float64(k), float64(k + f)
			}
			ctx := v.Context(s.engine.Cursor.Node, learn.Terms(context))
			for _, from := range s.manifest.Names() {
				ev := v.Model.Estimate(ctx, from, to, 0).Evidence
				succ, n = succ+ev.S, n+ev.N
			}
			return succ, n
		}
		caps := []pyjson.Value{}
		var none, little []string
		sum := 0.0
		for _, to := range resolved {
			succ, n := outcomes(to)
			sum += min(1, n/coverageExperienceFull)
			caps = append(caps, pyjson.Obj(pyjson.KV("capability", to),
				pyjson.KV("outcomes", round(n, 2)), pyjson.KV("successes", round(succ, 2))))
			switch {
			case n == 0:
				none = append(none, to)
			case n < coverageExperienceFull:
				little = append(little, to+" ("+pyjson.FormatFloat(round(n, 2))+")")
			}
		}
		if none != nil {
			gaps = append(gaps, "no reported outcome of "+strings.Join(none, ", "))
		}
		if little != nil {
			gaps = append(gaps, "few outcomes (under "+itoa(coverageExperienceFull)+") of "+strings.Join(little, ", "))
		}
		expScore := 0.0
		if len(resolved) > 0 {
			expScore = sum / float64(len(resolved))
		}
		score = (knowScore + expScore) / 2
		experience = pyjson.Obj(pyjson.KV("score", round(expScore, 4)), pyjson.KV("capabilities", caps))
	}
	score = round(score, 4)

	var rec string
	switch {
	case score >= 0.7:
		rec = "well covered: consult and follow its advice, report each action"
	case score >= 0.3:
		rec = "partly covered: consult, then proceed carefully and report every action, so the gaps fill"
	default:
		rec = "little covered: explore, report every action, and reflect afterwards (post_task) to record what worked"
	}
	if found.closed > 0 {
		rec += "; " + itoa(found.closed) + " dead end(s) apply: read them (consult) before trying those avenues again"
	}
	if gaps == nil {
		gaps = []string{}
	}
	return pyjson.Obj(
		pyjson.KV("context", context),
		pyjson.KV("score", score),
		pyjson.KV("resolved_capabilities", orEmptyStrings(resolved)),
		pyjson.KV("knowledge", pyjson.Obj(pyjson.KV("score", round(knowScore, 4)),
			pyjson.KV("methodology", found.methodology), pyjson.KV("judgment", found.judgment), pyjson.KV("dead_ends", found.deadEnds))),
		pyjson.KV("experience", experience),
		pyjson.KV("gaps", gaps),
		pyjson.KV("recommendation", rec),
	), nil
}

// coverageFound counts what a consult would show of the knowledge for a
// task, and the dead ends that still hold (not reopened).
type coverageFound struct{ methodology, judgment, deadEnds, closed int }

// coverageKnowledge finds the knowledge as consult does: a v4 workspace's
// knowledge context, or the reference's search.
func (s *session) coverageKnowledge(context string, resolved []string) (coverageFound, error) {
	var f coverageFound
	if s.model.governsKnowledge() {
		kc, err := s.knowledgeContext(context)
		if err != nil {
			return f, err
		}
		f.methodology, f.judgment, f.deadEnds = len(kc.methodology), len(kc.judgment), len(kc.deadEnds)
		for _, d := range kc.deadEnds {
			if v, _ := d.Get("reopen_triggered"); !v.Bool() {
				f.closed++
			}
		}
		return f, nil
	}
	q := knowledge.Query{Keywords: knowledge.Words(context), Capabilities: resolved, Now: s.now,
		DecayRate: temporalDecayRate, StructuralWeight: structuralWeight, Max: maxMethodologyHits}
	prepared := q.Prepare("")
	methodology, err := s.candidates(relMethodology, 0, q.Max, prepared, knowledge.MethodologyKind)
	if err != nil {
		return f, err
	}
	nodes, err := s.candidates(relJudgment, judgmentWindow, q.Max, prepared, knowledge.JudgmentKind)
	if err != nil {
		return f, err
	}
	dq := q
	dq.Max = maxDeadEndHits
	deadEnds, err := s.candidates(relDeadEnds, 0, dq.Max, dq.Prepare(context), knowledge.DeadEndKind)
	if err != nil {
		return f, err
	}
	deadHits := knowledge.SearchDeadEnds(deadEnds, dq, context)
	f.methodology = len(knowledge.SearchMethodology(methodology, q))
	f.judgment = len(knowledge.SearchJudgmentNodes(nodes, q))
	f.deadEnds = len(deadHits)
	for _, h := range deadHits {
		if !h.ReopenTriggered {
			f.closed++
		}
	}
	return f, nil
}

// coverageOutput is the answer of coverage.
var coverageOutput = []field.Output{
	{Name: "context", Type: field.String, Always: true, Doc: "the task, as given"},
	{Name: "score", Type: field.Number, Always: true, Doc: "how ready the memory is for the task, 0 to 1"},
	{Name: "resolved_capabilities", Type: field.Strings, Always: true, Doc: "the capabilities the task resolves to"},
	{Name: "knowledge", Type: field.Object, Always: true, Doc: "the knowledge relevant to the task: its score and entries of each kind"},
	{Name: "experience", Type: field.Object, Null: true, Always: true, Doc: "the outcomes learnt of the task's capabilities and its score; null for a model that learns none (v2)"},
	{Name: "gaps", Type: field.Strings, Always: true, Doc: "what the memory lacks for the task"},
	{Name: "recommendation", Type: field.String, Always: true, Doc: "what to do about the gaps"},
}
