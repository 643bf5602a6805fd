package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/advice"
)

// transitions lists what the workspace learned of each step
// (learn.Transitions): a learning model's own counts, else those of the
// action log's last window lines. Contexts and last-seen times come from
// the last window reports (the action log's lines, with contexts, the
// journal's: reportContexts). Ordered by from, then to.
func (s *session) transitions(window int, contexts []reportContext) ([]*learn.Transition, error) {
	v, err := s.learned()
	if err != nil {
		return nil, err
	}
	var m learn.Learned
	if v != nil {
		m = v.Model
	}
	sv, err := s.steps()
	if err != nil {
		return nil, err
	}
	if sv != nil {
		pairs, err := s.stepPairs(sv)
		if err != nil {
			return nil, err
		}
		m = pairs
	}
	lines, err := s.window(relActionLog, window)
	if err != nil {
		return nil, err
	}
	total, err := s.reportsTotal()
	if err != nil {
		return nil, err
	}
	// The journal's reports are the action log's last lines (relearn).
	offset := total - len(contexts)
	first := total - len(lines)
	reports := make([]learn.Report, 0, len(lines))
	for i := len(lines) - 1; i >= 0; i-- { // newest first
		line := lines[i]
		r := learn.Report{From: line.StrOf("cursor_before"), To: line.StrOf("action"),
			Success: line.StrOf("success"), Time: line.StrOf("timestamp")}
		if !s.manifest.Has(r.From) || !s.manifest.Has(r.To) {
			continue
		}
		if j := first + i - offset; j >= 0 && j < len(contexts) {
			r.Context = contexts[j].text
		}
		reports = append(reports, r)
	}
	return learn.Transitions(s.engine.Graph, m, reports), nil
}

// transitionValue is a transition as show and view answer it.
func transitionValue(t *learn.Transition) pyjson.Value {
	var rate, last any
	if t.N > 0 {
		rate = round(t.Rate(), 4)
	}
	if t.LastSeen != "" {
		last = t.LastSeen
	}
	contexts := t.Contexts
	if contexts == nil {
		contexts = []string{}
	}
	return pyjson.Obj(
		pyjson.KV("from", t.From),
		pyjson.KV("to", t.To),
		pyjson.KV("successes", round(t.S, 2)),
		pyjson.KV("of", round(t.N, 2)),
		pyjson.KV("rate", rate),
		pyjson.KV("contexts", contexts),
		pyjson.KV("last_seen", last),
		pyjson.KV("discovered", t.Discovered),
	)
}

// stepPairs is what a v5 model learned of each step between capabilities
// (advice.Place.Pairs).
func (s *session) stepPairs(v *advice.Steps) (pairList, error) {
	m := s.stepsModel(v)
	out := s.place().Pairs(m)
	return out, modelErr(m)
}

// pairList is learned transitions as learn.Transitions reads them.
type pairList []learn.Pair

// Pairs returns the list.
func (p pairList) Pairs() []learn.Pair { return p }
