package advice

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// The per-task view: for a task, the chain of steps ucs learned for it,
// from its start, each with the alternatives at that step. It is made of
// consult --from's answers, which the caller ranks, so each step of a
// chain is what `ucs consult --context C --from AT` ranks first there:
// show, view's data and consult agree by construction.

// ChainMax is how many steps a chain follows at most: a task's learned
// chain is a handful of steps, and a longer one is a loop the repeat
// check did not catch.
const ChainMax = 8

// A ChainStep is one step of a task's chain: the position it is ranked at
// (nextstep.Start: the task's start) and consult --from's suggestions
// there, the first of which is the step taken.
type ChainStep struct {
	At          string
	Suggestions []pyjson.Value
}

// FollowChain follows a task's learned chain from at: the top suggestion
// of rank there, then the top one at that step, and so on. It stops at a
// step already in the chain, at a suggestion with no evidence behind it
// (HasEvidence), or after ChainMax steps.
func FollowChain(at string, rank func(from string) ([]pyjson.Value, error)) ([]ChainStep, error) {
	var out []ChainStep
	seen := map[string]bool{at: at != nextstep.Start}
	for len(out) < ChainMax {
		top, err := rank(at)
		if err != nil {
			return nil, err
		}
		if len(top) == 0 || !HasEvidence(top[0]) {
			break
		}
		out = append(out, ChainStep{At: at, Suggestions: top})
		next := top[0].StrOf("to")
		if seen[next] {
			break
		}
		seen[next] = true
		at = next
	}
	return out, nil
}

// HasEvidence reports whether a suggestion rests on what the agent did,
// not on the manifest's prior alone: on v5, the step followed this state
// at least once in this task or in tasks whose context shares a word with
// this one (a step only ever taken in other kinds of task would carry the
// chain past the task's end); on a learning model, the step has outcomes; the
// reference's model (v2) keeps none, and its edges' learned weight stands
// for them.
func HasEvidence(p pyjson.Value) bool {
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

// Chains are the chains of the n newest tasks of the reports
// (ChainContexts), each as show and view answer it (ChainValue): chain
// follows a context's chain (FollowChain).
func Chains(reports []ReportContext, n int, chain func(context string) ([]ChainStep, error)) ([]pyjson.Value, error) {
	out := []pyjson.Value{}
	for _, context := range ChainContexts(Texts(reports), n) {
		steps, err := chain(context)
		if err != nil {
			return nil, err
		}
		out = append(out, ChainValue(context, steps))
	}
	return out, nil
}

// ChainContexts are the contexts whose chains show and view give: those
// of the reports (a report's own, else its consult's, oldest first), the
// newest first, one per task as v5 tells tasks apart (learn.Terms), at
// most n.
func ChainContexts(reports []string, n int) []string {
	var out []string
	seen := map[string]bool{}
	for i := len(reports) - 1; i >= 0 && len(out) < n; i-- {
		text := reports[i]
		terms := learn.Terms(text)
		if len(terms) == 0 {
			continue
		}
		if key := ContextTask(terms); !seen[key] {
			seen[key] = true
			out = append(out, text)
		}
	}
	return out
}

// ChainValue is a task's chain as show and view answer it: its context,
// and each step with the position it was ranked at (null: the task's
// start), the step, why (whole counts), its evidence, and the
// alternatives there.
func ChainValue(context string, steps []ChainStep) pyjson.Value {
	out := make([]pyjson.Value, len(steps))
	for i, st := range steps {
		var at any
		if st.At != nextstep.Start {
			at = st.At
		}
		top := st.Suggestions[0]
		alts := make([]pyjson.Value, 0, len(st.Suggestions)-1)
		for _, p := range st.Suggestions[1:] {
			alts = append(alts, SuggestionBrief(p))
		}
		ms := append([]pyjson.Member{pyjson.KV("at", at)}, SuggestionBrief(top).Members()...)
		out[i] = pyjson.ObjectValue(append(ms, pyjson.KV("alternatives", alts)))
	}
	return pyjson.Obj(pyjson.KV("context", context), pyjson.KV("chain", out))
}

// SuggestionBrief is what a chain keeps of one of consult's suggestions:
// the step, its score and chance of success, its evidence and why.
func SuggestionBrief(p pyjson.Value) pyjson.Value {
	var ms []pyjson.Member
	for _, k := range []string{"to", "score", "p_success", "evidence", "why"} {
		if v, ok := p.Get(k); ok {
			ms = append(ms, pyjson.KV(k, v))
		}
	}
	return pyjson.ObjectValue(ms)
}
