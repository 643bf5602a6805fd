package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// The per-task view: for a task, the chain of steps ucs learned for it,
// from its start, each with the alternatives at that step. It is made of
// consult --from's answers (adviceAt, on the inputs consult computes for
// the context), so each step of a chain is what `ucs consult --context C
// --from AT` ranks first there: show, view's data and consult agree by
// construction.

// chainMax is how many steps a chain follows at most: a task's learned
// chain is a handful of steps, and a longer one is a loop the repeat
// check did not catch.
const chainMax = 8

// A chainStep is one step of a task's chain: the position it is ranked at
// (nextstep.Start: the task's start) and consult --from's suggestions
// there, the first of which is the step taken.
type chainStep struct {
	At          string
	Suggestions []pyjson.Value
}

// taskChain follows a task's learned chain: from the task's start on v5
// (the engine's cursor on a model that knows no task's start), the top
// suggestion at each position, then the top one at that step, and so on.
// It stops at a step already in the chain, at a suggestion with no
// evidence behind it (the manifest's prior alone), or after chainMax
// steps. It runs on a fresh copy of the workspace as the call read it:
// nothing it ranks reaches the session.
func (s *session) taskChain(context string) ([]chainStep, error) {
	f, err := s.reloaded()
	if err != nil {
		return nil, err
	}
	rank, err := f.positionedRanker(context)
	if s.obsCtx == nil && f.obsCtx != nil {
		s.obsCtx = f.obsCtx // built once, from the book both read
	}
	if err != nil {
		return nil, err
	}
	at := f.engine.Cursor.Node
	if f.model.nextSteps() {
		at = nextstep.Start
	}
	var out []chainStep
	seen := map[string]bool{at: at != nextstep.Start}
	for len(out) < chainMax {
		top, err := rank(at)
		if err != nil {
			return nil, err
		}
		if len(top) == 0 || !hasEvidence(top[0]) {
			break
		}
		out = append(out, chainStep{At: at, Suggestions: top})
		next := top[0].StrOf("to")
		if seen[next] {
			break
		}
		seen[next] = true
		at = next
	}
	return out, nil
}

// positionedRanker returns consult --from's ranking for a context (no task
// id, no capabilities named): its suggested_paths at any position, on the
// context's energy and dead ends as consult computes them.
func (s *session) positionedRanker(context string) (func(from string) ([]pyjson.Value, error), error) {
	c := consultSpec.complete(Call{Op: consultSpec.Name, Args: pyjson.Obj(pyjson.KV("context", context)), Input: pyjson.NullValue()})
	kw := newKeywords(s.manifest)
	resolved, err := s.taskCapabilities(c, kw)
	if err != nil {
		return nil, err
	}
	ctx := map[string]float64{}
	for _, ne := range s.engine.PrepareContextEnergy(resolved, consultMagnitude, contextDiffusion) {
		ctx[ne.Node] = ne.Energy
	}
	q := consultQuery(s, context, resolved)
	_, _, pen, err := s.consultDeadEnds(context, q, kw)
	if err != nil {
		return nil, err
	}
	return func(from string) ([]pyjson.Value, error) {
		top, _, err := s.adviceAt("", context, from, ctx, pen.energy, false)
		return top, err
	}, nil
}

// hasEvidence reports whether a suggestion rests on what the agent did,
// not on the manifest's prior alone: on v5, the step followed this state
// at least once in this task or in tasks whose context shares a word with
// this one (a step only ever taken in other kinds of task would carry the
// chain past the task's end); on a learning model, the step has outcomes; the
// reference's model (v2) keeps none, and its edges' learned weight stands
// for them.
func hasEvidence(p pyjson.Value) bool {
	ev, ok := p.Get("evidence")
	if !ok {
		return true // v2: the reference's scores
	}
	get := func(v pyjson.Value, path ...string) float64 {
		for _, k := range path {
			v, _ = v.Get(k)
		}
		f, _ := v.Float()
		return f
	}
	if _, ok := ev.Get("outcomes"); ok { // v5
		next, _ := ev.Get("next_step")
		level := next.StrOf("level")
		return (level == "task" || level == "term") && get(next, "times") > 0
	}
	return get(ev, "all_contexts", "of") > 0
}

// chainContexts are the contexts whose chains show and view give: those
// of the reports (a report's own, else its consult's), the newest first,
// one per task as v5 tells tasks apart (learn.Terms), at most n.
func chainContexts(reports []reportContext, n int) []string {
	var out []string
	seen := map[string]bool{}
	for i := len(reports) - 1; i >= 0 && len(out) < n; i-- {
		text := reports[i].text
		terms := learn.Terms(text)
		if len(terms) == 0 {
			continue
		}
		if key := advice.ContextTask(terms); !seen[key] {
			seen[key] = true
			out = append(out, text)
		}
	}
	return out
}

// chainValue is a task's chain as show and view answer it: its context,
// and each step with the position it was ranked at (null: the task's
// start), the step, why (whole counts), its evidence, and the
// alternatives there.
func chainValue(context string, steps []chainStep) pyjson.Value {
	out := make([]pyjson.Value, len(steps))
	for i, st := range steps {
		var at any
		if st.At != nextstep.Start {
			at = st.At
		}
		top := st.Suggestions[0]
		alts := make([]pyjson.Value, 0, len(st.Suggestions)-1)
		for _, p := range st.Suggestions[1:] {
			alts = append(alts, suggestionBrief(p))
		}
		ms := append([]pyjson.Member{pyjson.KV("at", at)}, suggestionBrief(top).Members()...)
		out[i] = pyjson.ObjectValue(append(ms, pyjson.KV("alternatives", alts)))
	}
	return pyjson.Obj(pyjson.KV("context", context), pyjson.KV("chain", out))
}

// suggestionBrief is what a chain keeps of one of consult's suggestions:
// the step, its score and chance of success, its evidence and why.
func suggestionBrief(p pyjson.Value) pyjson.Value {
	var ms []pyjson.Member
	for _, k := range []string{"to", "score", "p_success", "evidence", "why"} {
		if v, ok := p.Get(k); ok {
			ms = append(ms, pyjson.KV(k, v))
		}
	}
	return pyjson.ObjectValue(ms)
}

// taskChains are the chains of the n newest tasks of the reports.
func (s *session) taskChains(reports []reportContext, n int) ([]pyjson.Value, error) {
	out := []pyjson.Value{}
	for _, context := range chainContexts(reports, n) {
		steps, err := s.taskChain(context)
		if err != nil {
			return nil, err
		}
		out = append(out, chainValue(context, steps))
	}
	return out, nil
}
